// Secrets never reach a terminal or a log: every debug line and error message
// that could carry the key goes through a Redactor first.

const MASK = '***';

/** Needles a quick test looks for, and the patterns, built only once a needle is found: most runs never print a key. */
type Forms = { needles: string[]; patterns: () => RegExp[] };

const once = <T>(make: () => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};

/** A key is a token: next to a word character it is part of another word ("another" for `other`). */
const WORD_CHAR = String.raw`[\p{L}\p{N}_-]`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function tokenPattern(secret: string): RegExp {
  return new RegExp(`(?<!${WORD_CHAR})${escapeRegExp(secret)}(?!${WORD_CHAR})`, 'gu');
}

/**
 * A key cut short (a truncating log) still gives it away, so it is masked from this many of its
 * first characters on: past any non-secret prefix like `sk-live-`. Under the floor only the
 * whole key is masked, since a shorter piece would be an ordinary word.
 */
const CUT_KEY_MIN = 16;
const CUT_KEY_FLOOR = 8;

function cutPattern(secret: string, min: number): RegExp {
  const chars = Array.from(secret);
  let rest = '';
  for (let i = chars.length - 1; i >= min; i--) rest = `(?:${escapeRegExp(chars[i]!)}${rest})?`;
  return new RegExp(`(?<!${WORD_CHAR})${escapeRegExp(chars.slice(0, min).join(''))}${rest}(?!${WORD_CHAR})`, 'gu');
}

/** The forms a service or proxy may echo (CLI.md "secrets"), padded first so no `=` is left; patterns built only once a needle is found. */
function keyForms(secret: string): Forms {
  const length = Array.from(secret).length;
  const min = Math.min(CUT_KEY_MIN, length - 1);
  const standard = Buffer.from(secret, 'utf8').toString('base64');
  const urlSafe = Buffer.from(secret, 'utf8').toString('base64url');
  const padded = (text: string) => text.padEnd(Math.ceil(text.length / 4) * 4, '=');
  const exact = [...new Set([encodeURIComponent(secret), padded(urlSafe), standard, encodeURIComponent(standard), standard.replace(/=+$/, ''), urlSafe])].filter((f) => f !== secret);
  const needles = [min >= CUT_KEY_FLOOR ? Array.from(secret).slice(0, min).join('') : secret, ...exact];
  return { needles, patterns: once(() => [min >= CUT_KEY_FLOOR ? cutPattern(secret, min) : tokenPattern(secret), ...exact.map(tokenPattern)]) };
}

/**
 * The key's base64 inside a longer base64 text (`Basic base64(key:x)`) depends on its offset
 * modulo 3: per offset, the run only the key's bytes decide, without the mixed end characters.
 */
function innerBase64Runs(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [0, 1, 2].map((offset) => {
    const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    return text.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
  });
}

function base64Char(c: string): string {
  if (c === '+') return '(?:[+-]|%2[Bb])';
  if (c === '/') return '(?:[/_]|%2[Ff])';
  return c;
}

function runPattern(run: string, min: number): RegExp {
  const chars = Array.from(run);
  let rest = '';
  for (let i = chars.length - 1; i >= min; i--) rest = `(?:${base64Char(chars[i]!)}${rest})?`;
  return new RegExp(`${chars.slice(0, min).map(base64Char).join('')}${rest}`, 'g');
}

/** Not `/`, which would take a URL's path with it. */
const BASE64_CHAR = /[A-Za-z0-9+_-]/;

function maskBase64Text(text: string, run: RegExp): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(run)) {
    let start = match.index;
    let end = start + match[0].length;
    if (start < last) continue;
    while (start > last && BASE64_CHAR.test(text[start - 1]!)) start--;
    while (end < text.length && BASE64_CHAR.test(text[end]!)) end++;
    for (let pad = 0; pad < 2 && text[end] === '='; pad++) end++;
    out += `${text.slice(last, start)}${MASK}`;
    last = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** The key's base64 at the three offsets, whole or cut down to `minBytes` of the key; the texts a quick test looks for. */
function innerForms(secret: string, minBytes: number): Forms {
  const runs = innerBase64Runs(secret).map((run, offset) => ({ run, min: Math.floor(((offset + minBytes) * 8) / 6) - Math.ceil((offset * 8) / 6) }));
  const needles = runs.flatMap(({ run, min }) => {
    const head = run.slice(0, min);
    return [head, head.replace(/\+/g, '-').replace(/\//g, '_'), encodeURIComponent(head)];
  });
  return { needles: [...new Set(needles)], patterns: once(() => runs.map(({ run, min }) => runPattern(run, min))) };
}

/** A Bearer value (an Authorization header's), known or not; "Bearer" a word of its own. */
const bearer = once(() => new RegExp(String.raw`(?<!${WORD_CHAR})(Bearer\s+)(?!\*\*\*)[^\s"',;]+`, 'giu'));

/** Shorter values would mask innocent text; keys are long. No form of a key (below) is shorter either. */
const MIN_SECRET_LENGTH = 4;

/** Inside longer base64 only from 8 characters on: a shorter key's few base64 characters would be found in innocent text. */
function allForms(secret: string): { forms: Forms; inner: Forms } {
  const minBytes = Math.min(CUT_KEY_MIN, Buffer.byteLength(secret) - 1);
  const inner = Array.from(secret).length >= CUT_KEY_FLOOR ? innerForms(secret, minBytes) : { needles: [], patterns: () => [] };
  return { forms: keyForms(secret), inner };
}

export class Redactor {
  /** Each key's forms are worked out when text long enough to hold one is first masked: most runs print none. */
  private readonly secrets: { secret: string; forms: () => { forms: Forms; inner: Forms } }[] = [];

  add(secret: string | undefined): void {
    if (!secret || secret.length < MIN_SECRET_LENGTH || this.secrets.some((s) => s.secret === secret)) return;
    this.secrets.push({ secret, forms: once(() => allForms(secret)) });
  }

  /** Every Bearer value and every key masked, each as a whole token (CLI.md "secrets"). */
  redact(text: string): string {
    return this.redactKeys(text.replace(bearer(), `$1${MASK}`));
  }

  /** Known keys only: on stdout a word "Bearer" is the user's own text. A key is a token, so JSON stays JSON. */
  redactKeys(text: string): string {
    if (text.length < MIN_SECRET_LENGTH) return text;
    let out = text;
    for (const secret of this.secrets) {
      const { forms, inner } = secret.forms();
      // The quick test first: most text holds no key at all.
      if (forms.needles.some((needle) => out.includes(needle))) for (const pattern of forms.patterns()) out = out.replace(pattern, MASK);
      if (inner.needles.some((needle) => out.includes(needle))) for (const run of inner.patterns()) out = maskBase64Text(out, run);
    }
    return out;
  }
}

const MASK_MIN_KEY_LENGTH = 8;

/** The last few characters, so keys can be told apart, but never enough to give a short key away. */
export function maskKey(key: string): string {
  if (key.length < MASK_MIN_KEY_LENGTH) return MASK;
  const shown = Math.min(4, Math.floor(key.length / 4));
  return `${MASK}${key.slice(-shown)}`;
}
