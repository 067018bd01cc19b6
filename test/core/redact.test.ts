// Secrets never reach a terminal or a log (src/core/redact.ts).
import { describe, expect, it } from 'vitest';
import { maskKey, Redactor } from '../../src/core/redact.js';

describe('Redactor', () => {
  it('masks any Bearer token, known or not, once', () => {
    const r = new Redactor();
    expect(r.redact('> Authorization: Bearer abc.def-123')).toBe('> Authorization: Bearer ***');
    expect(r.redact('"authorization":"bearer xyz"')).toBe('"authorization":"bearer ***"');
    expect(r.redact('Bearer ***')).toBe('Bearer ***');
  });

  it('masks every occurrence of a known secret, raw and URI-encoded', () => {
    const r = new Redactor();
    r.add('k3y/with+chars');
    expect(r.redact('key k3y/with+chars twice k3y/with+chars')).toBe('key *** twice ***');
    expect(r.redact('GET /x?api_key=k3y%2Fwith%2Bchars')).toBe('GET /x?api_key=***');
  });

  it('masks a key as a whole token, never the part of a word it spells', () => {
    const r = new Redactor();
    r.add('other');
    expect(r.redact('was written with another API key')).toBe('was written with another API key');
    expect(r.redact('others, otherwise, other_x, other-team')).toBe('others, otherwise, other_x, other-team');
    expect(r.redact('key other, "other", ?k=other&, (other)')).toBe('key ***, "***", ?k=***&, (***)');
    // Not a word of its own either: "Sword-bearer abc".
    expect(r.redact('the sword-bearer comes')).toBe('the sword-bearer comes');
  });

  it('ignores secrets under 4 characters and undefined, which would mask innocent text', () => {
    const r = new Redactor();
    r.add('abc');
    r.add(undefined);
    r.add('');
    expect(r.redact('abc abcdef')).toBe('abc abcdef');
  });
});

describe('maskKey', () => {
  it('shows at most a quarter of the key and never more than 4 characters', () => {
    expect(maskKey('0123456789abcdef0123')).toBe('***0123');
    expect(maskKey('01234567')).toBe('***67');
    expect(maskKey('0123456789ab')).toBe('***9ab');
  });

  it('shows nothing of a key under 8 characters', () => {
    expect(maskKey('1234567')).toBe('***');
    expect(maskKey('')).toBe('***');
  });
});
