// The stdout edge's masking (src/output/key-mask.ts) with the Redactor's
// forms (src/core/redact.ts): a key cut across writes is still masked, a
// record that ends its line leaves at once, and short keys mask no pieces.
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/redact.js';
import { keyMask } from '../../src/output/key-mask.js';

const KEY = 'sk-live-Zq3xV9pL2mR7tY4wK8nB1cD6';

function masker(key = KEY) {
  const redactor = new Redactor();
  redactor.add(key);
  return keyMask((t) => redactor.redactKeys(t));
}

describe('keyMask', () => {
  it('masks a key split across writes at any point', () => {
    const text = `{"Title":"a ${KEY} b"}\n`;
    for (let at = 1; at < text.length; at++) {
      const mask = masker();
      const out = mask.filter(text.slice(0, at)) + mask.filter(text.slice(at)) + mask.filter(mask.end());
      expect(out).toBe('{"Title":"a *** b"}\n');
    }
  });

  it('writes a whole line at once and holds only a word in progress', () => {
    const mask = masker();
    expect(mask.filter('one line\n')).toBe('one line\n');
    expect(mask.filter('two wor')).toBe('two ');
    expect(mask.filter('ds\n')).toBe('words\n');
  });
});

describe('Redactor forms of a key', () => {
  it('masks a key cut at its end down to 16 characters, not a shorter piece', () => {
    const redactor = new Redactor();
    redactor.add(KEY);
    expect(redactor.redactKeys(`x ${KEY.slice(0, 16)}… y`)).toBe('x ***… y');
    expect(redactor.redactKeys(`x ${KEY.slice(0, 15)} y`)).toBe(`x ${KEY.slice(0, 15)} y`);
    // Part of a longer word is not the key.
    expect(redactor.redactKeys(`${KEY}x`)).toBe(`${KEY}x`);
  });

  it('masks a short key whole only: its pieces are ordinary words', () => {
    const redactor = new Redactor();
    redactor.add('other');
    expect(redactor.redactKeys('the othe other')).toBe('the othe ***');
  });

  it('masks base64 forms and leaves the word Bearer alone on stdout', () => {
    const redactor = new Redactor();
    redactor.add(KEY);
    const b64 = Buffer.from(KEY).toString('base64');
    expect(redactor.redactKeys(`${b64} ${b64.replace(/=+$/, '')} Bearer x`)).toBe('*** *** Bearer x');
  });
});
