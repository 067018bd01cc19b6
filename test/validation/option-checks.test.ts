// The shared client-side checks: UsageError with the service's code where
// the rule is the service's, values returned as given (only trimmed).
import { describe, expect, it } from 'vitest';
import { checkEmail, checkHttpUrl, checkUuid, isHttpUrl, requireText } from '../../src/validation/option-checks.js';
import { refusal } from '../helpers/usage.js';

describe('requireText', () => {
  it('returns the value exactly as typed', () => {
    expect(requireText('  Monthly  ', '--name', 319, 'the name')).toBe('  Monthly  ');
  });

  it('refuses a missing or blank value, naming the flag and what it is, with the code', () => {
    expect(refusal(() => requireText(undefined, '--name', 319, 'the campaign name'))).toEqual({ code: 319, message: '--name is required: the campaign name' });
    expect(refusal(() => requireText(' \t', '--subject', undefined, 'the subject line'))).toEqual({ code: undefined, message: '--subject is required: the subject line' });
  });
});

describe('checkUuid', () => {
  it('returns the id trimmed, dashes or not, as given', () => {
    expect(checkUuid(' 3F2B8C1E0A4D4C6B9E1F2A7D5C9B8E41 ', '--list')).toBe('3F2B8C1E0A4D4C6B9E1F2A7D5C9B8E41');
  });

  it('refuses anything else with an example of both forms and what came', () => {
    expect(refusal(() => checkUuid('abc', '--list', 313))).toEqual({
      code: 313,
      message: '--list must be a UUID such as 3f2b8c1e-0a4d-4c6b-9e1f-2a7d5c9b8e41 or 3f2b8c1e0a4d4c6b9e1f2a7d5c9b8e41; got "abc"',
    });
    expect(refusal(() => checkUuid(undefined, '--segment'))?.message).toMatch(/got ""$/);
    expect(refusal(() => checkUuid(7, '--segment'))?.message).toMatch(/got "7"$/);
  });
});

describe('checkEmail', () => {
  it('returns the address trimmed, or refuses it with the code, quoting it as typed', () => {
    expect(checkEmail(' ada@example.com ', '--from-email', 307)).toBe('ada@example.com');
    expect(refusal(() => checkEmail('ada@ ', '--reply-to', 309))).toEqual({ code: 309, message: '--reply-to is not a valid email address: "ada@ "' });
  });
});

describe('isHttpUrl and checkHttpUrl', () => {
  it('take absolute http(s) URLs with a host only', () => {
    for (const url of ['https://example.com/a.html', ' http://127.0.0.1:8080/x ', 'HTTPS://EXAMPLE.COM']) expect(isHttpUrl(url), url).toBe(true);
    for (const url of ['ftp://example.com/a', 'file:///etc/passwd', 'example.com/a.html', '/a.html', 'http://', 'javascript:alert(1)', '']) expect(isHttpUrl(url), url).toBe(false);
  });

  it('checkHttpUrl returns the URL trimmed, or refuses it with the code', () => {
    expect(checkHttpUrl(' https://example.com/a ', '--html-url', 310)).toBe('https://example.com/a');
    expect(refusal(() => checkHttpUrl('example.com', '--zip-url', 4006))).toEqual({ code: 4006, message: '--zip-url must be an absolute http:// or https:// URL; got "example.com"' });
  });
});
