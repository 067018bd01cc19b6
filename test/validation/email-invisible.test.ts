// Addresses spoiled by characters nobody can see (CLI.md "What a file means"):
// cleaned when removing them is safe, otherwise shown by code point.
import { describe, expect, it } from 'vitest';
import { cleanInvisible, showInvisible } from '../../src/validation/email-address.js';

describe('cleanInvisible', () => {
  it.each([
    ['zw\u200Bsp@example.com', 'zwsp@example.com', ['U+200B']],
    ['\uFEFFbom@example.com', 'bom@example.com', ['U+FEFF']],
    ['so\u00ADft@exam\u00ADple.com', 'soft@example.com', ['U+00AD']],
    ['j\u200C\u200Doin\u2060@example.com', 'join@example.com', ['U+200C', 'U+200D', 'U+2060']],
  ])('%j becomes %s', (raw, address, removed) => {
    expect(cleanInvisible(raw)).toEqual({ address, removed });
  });

  it.each([
    ['a no-break space inside', 'nb\u00A0sp@example.com'],
    ['an address still invalid without them', 'zw\u200Bsp@'],
    ['a right-to-left override', 'rtl\u202Eok@example.com'],
    ['nothing to remove', 'plain@example.com'],
  ])('leaves %s alone', (_why, raw) => {
    expect(cleanInvisible(raw)).toBeUndefined();
  });
});

describe('showInvisible', () => {
  it('shows invisible characters and unusual spaces by code point, and leaves controls to neutralize()', () => {
    expect(showInvisible('zw\u200Bsp@example.com')).toBe('zw<U+200B>sp@example.com');
    expect(showInvisible('a\u00A0b\u2060c\u00ADd\uFEFF Zoë\u202E\t')).toBe('a<U+00A0>b<U+2060>c<U+00AD>d<U+FEFF> Zoë\u202E\t');
  });
});
