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

describe('Redactor: the key inside a longer base64 text (CLI.md "secrets")', () => {
  const KEY = 'sk_live_4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e';
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  const redactor = () => {
    const r = new Redactor();
    r.add(KEY);
    return r;
  };
  /** Whether any 12 characters of the key's base64, at any of the three offsets, are left in `text`. */
  const leaks = (text: string) =>
    [0, 1, 2].some((offset) => {
      const run = b64(`${'x'.repeat(offset)}${KEY}`).slice(4, -4);
      const url = run.replace(/\+/g, '-').replace(/\//g, '_');
      for (let i = 0; i + 12 <= run.length; i++) if (text.includes(run.slice(i, i + 12)) || text.includes(url.slice(i, i + 12))) return true;
      return false;
    });

  it('masks Basic base64(key:x) and base64("Authorization: Bearer " + key) as whole tokens', () => {
    const r = redactor();
    expect(r.redactKeys(`Authorization: Basic ${b64(`${KEY}:x`)}`)).toBe('Authorization: Basic ***');
    expect(r.redactKeys(`Basic ${b64(`user:${KEY}`)}`)).toBe('Basic ***');
    expect(r.redactKeys(`echo=${b64(`Authorization: Bearer ${KEY}`)}.`)).toBe('echo=***.');
  });

  it('masks it at every offset, before and after any text, standard and URL-safe, padded or not', () => {
    const r = redactor();
    for (let before = 0; before < 6; before++) {
      for (let after = 0; after < 4; after++) {
        const text = `${'p'.repeat(before)}${KEY}${'s'.repeat(after)}`;
        for (const encoded of [b64(text), b64url(text), b64(text).replace(/=+$/, '')]) {
          const out = r.redactKeys(`{"echo":"${encoded}"}`);
          expect(out, `${before} before, ${after} after: ${encoded}`).toBe('{"echo":"***"}');
        }
      }
    }
  });

  it('masks a base64 form cut short, as a name cut at 80 characters leaves it', () => {
    const r = redactor();
    for (const prefix of ['', 'a', 'ab', 'Campaign: ']) {
      const whole = b64(`${prefix}${KEY}`);
      // Cut to leave 29 of the key's characters encoded, then 20: each still masked.
      for (const keep of [29, 20]) {
        const cut = whole.slice(0, Math.floor(((Buffer.byteLength(prefix) + keep) * 8) / 6));
        const out = r.redactKeys(`name ${cut}`);
        expect(leaks(out), `${prefix}|${keep}: ${out}`).toBe(false);
        expect(out).toBe('name ***');
      }
    }
  });

  it('masks it URL-encoded inside a URL, and leaves base64 without the key alone', () => {
    const r = redactor();
    const out = r.redactKeys(`https://example.com/p?t=${encodeURIComponent(b64(`xy${KEY}`))}&n=1`);
    expect(leaks(decodeURIComponent(out)), out).toBe(false);
    expect(out).toContain('&n=1');
    const other = b64('some other text of the same length as the key is, or so');
    expect(r.redactKeys(`Basic ${other}`)).toBe(`Basic ${other}`);
    expect(r.redact(`Basic ${b64(`${KEY}:x`)}`)).toBe('Basic ***');
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
