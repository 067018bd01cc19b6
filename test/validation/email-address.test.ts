// The one email-syntax check of every client-side validation, and the
// identifier check (CLI.md "identifiers").
import { describe, expect, it } from 'vitest';
import { isUuid, isValidEmail } from '../../src/validation/email-address.js';

describe('isValidEmail', () => {
  it.each(['ada@example.com', ' ada@example.com ', "o'brien+tag@mail.example.co.uk", 'a.b-c_d@x-y.example', 'x@example.xn--p1ai', `${'a'.repeat(64)}@example.com`])(
    'takes %j',
    (address) => {
      expect(isValidEmail(address)).toBe(true);
    },
  );

  it.each([
    ['no @', 'ada.example.com'],
    ['nothing before @', '@example.com'],
    ['nothing after @', 'ada@'],
    ['no dot in the domain', 'ada@localhost'],
    ['a numeric top-level domain', 'ada@example.123'],
    ['a one-letter top-level domain', 'ada@example.c'],
    ['a space', 'a da@example.com'],
    ['a quote', '"ada"@example.com'],
    ['a leading dot', '.ada@example.com'],
    ['a trailing dot', 'ada.@example.com'],
    ['two dots', 'a..da@example.com'],
    ['a label starting with a hyphen', 'ada@-example.com'],
    ['an empty label', 'ada@example..com'],
    ['a local part over 64 characters', `${'a'.repeat(65)}@example.com`],
    ['over 254 characters, every part valid', `${'a'.repeat(10)}@${`${'b'.repeat(60)}.`.repeat(4)}com`],
    ['a label over 63 characters', `ada@${'b'.repeat(64)}.com`],
  ])('refuses %s', (_why, address) => {
    expect(isValidEmail(address)).toBe(false);
  });
});

describe('isUuid', () => {
  it('takes the dashed form and the 32 hex digits, in any letter case', () => {
    expect(isUuid('3f2b8c1e-0a4d-4c6b-9e1f-2a7d5c9b8e41')).toBe(true);
    expect(isUuid('3F2B8C1E-0A4D-4C6B-9E1F-2A7D5C9B8E41')).toBe(true);
    expect(isUuid('3f2b8c1e0a4d4c6b9e1f2a7d5c9b8e41')).toBe(true);
  });

  it('refuses other shapes', () => {
    for (const value of ['', '3f2b8c1e-0a4d-4c6b-9e1f-2a7d5c9b8e4', '3f2b8c1e-0a4d-4c6b-9e1f-2a7d5c9b8e41x', '3f2b8c1e0a4d-4c6b-9e1f-2a7d5c9b8e41', 'g'.repeat(32), ' 3f2b8c1e0a4d4c6b9e1f2a7d5c9b8e41']) {
      expect(isUuid(value), value).toBe(false);
    }
  });
});
