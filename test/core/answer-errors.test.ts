// The errors the judge makes of an answer that is not 2xx (src/core/answer-errors.ts):
// both error shapes of the service, the key refused, and a 3xx with where it pointed.
import { describe, expect, it } from 'vitest';
import { errorForAnswer, redirectForAnswer } from '../../src/core/answer-errors.js';
import { ApiError, AuthError } from '../../src/core/errors.js';

const asIs = (text: string) => text;
const answer = (status: number, data: unknown, headers: Record<string, string> = {}) => ({ status, headers, data });

describe('errorForAnswer', () => {
  it('reads both error shapes of the service: {Code, Message, ResultData} and {status, message}', () => {
    const coded = errorForAnswer('POST', '/email/x', answer(400, { Code: '250', Message: 'List not found', ResultData: { a: 1 } }), asIs);
    expect(coded).toBeInstanceOf(ApiError);
    expect(coded).toMatchObject({ status: 400, code: 250, message: 'List not found', resultData: { a: 1 } });
    expect(errorForAnswer('GET', '/email/x', answer(404, { status: 404, message: 'Not here' }), asIs)).toMatchObject({ code: undefined, message: 'Not here' });
  });

  it('names the request and the reason phrase when the service said nothing of its own, and redacts what it did say', () => {
    expect(errorForAnswer('GET', '/email/x', answer(502, undefined), asIs).message).toBe('GET /email/x: Bad Gateway');
    expect(errorForAnswer('GET', '/email/x', answer(500, 'key sk_1 broke'), (t) => t.replace('sk_1', '***')).message).toBe('key *** broke');
  });

  it('makes a 401 or a 403 an AuthError', () => {
    expect(errorForAnswer('GET', '/email/x', answer(401, {}), asIs)).toBeInstanceOf(AuthError);
    expect(errorForAnswer('GET', '/email/x', answer(403, {}), asIs)).toBeInstanceOf(AuthError);
    expect(errorForAnswer('GET', '/email/x', answer(429, {}), asIs)).not.toBeInstanceOf(AuthError);
  });
});

describe('redirectForAnswer', () => {
  const url = 'http://127.0.0.1:9/base/email/x?page=2';
  it('resolves a relative Location against the request and names it', () => {
    const error = redirectForAnswer('GET', '/email/x', url, answer(302, undefined, { location: '../login' }), asIs);
    expect(error.message).toBe('the service answered 302 Found to GET /email/x, pointing to http://127.0.0.1:9/base/login: a proxy or a wrong base URL, not a done operation (nothing was followed)');
    expect(error.hint).toMatch(/use it as the base URL/);
  });

  it('cuts a long Location to a line, and says when there is none', () => {
    const long = `https://proxy.example/${'a'.repeat(2000)}`;
    expect(redirectForAnswer('GET', '/email/x', url, answer(307, undefined, { location: long }), asIs).message).toContain(`${long.slice(0, 500)}…:`);
    const none = redirectForAnswer('GET', '/email/x', url, answer(301, undefined), asIs);
    expect(none.message).toContain('301 Moved Permanently to GET /email/x, with no Location');
    expect(none.hint).toBe('Check the base URL; `email doctor` shows it and where it came from.');
  });
});
