// Secrets never reach a terminal or a log: every debug line and error message
// that could carry the key goes through a Redactor first.

const MASK = '***';

/** A key is a token: letters, digits, `_` and `-` next to it make it part of another word ("another" for the key `other`). */
const WORD_CHAR = String.raw`[\p{L}\p{N}_-]`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every whole-token occurrence of `secret` in the text. */
function tokenPattern(secret: string): RegExp {
  return new RegExp(`(?<!${WORD_CHAR})${escapeRegExp(secret)}(?!${WORD_CHAR})`, 'gu');
}

/** A Bearer value (an Authorization header's), known or not; "Bearer" as a word of its own. */
const BEARER = new RegExp(String.raw`(?<!${WORD_CHAR})(Bearer\s+)(?!\*\*\*)[^\s"',;]+`, 'giu');

export class Redactor {
  private readonly secrets: { secret: string; encoded: string; patterns: RegExp[] }[] = [];

  add(secret: string | undefined): void {
    // Very short values would mask innocent text; keys are long.
    if (!secret || secret.length < 4 || this.secrets.some((s) => s.secret === secret)) return;
    const encoded = encodeURIComponent(secret);
    this.secrets.push({ secret, encoded, patterns: encoded === secret ? [tokenPattern(secret)] : [tokenPattern(secret), tokenPattern(encoded)] });
  }

  /** The text with every Bearer value and every key masked, each as a whole token (CLI.md "secrets"). */
  redact(text: string): string {
    let out = text.replace(BEARER, `$1${MASK}`);
    for (const { secret, encoded, patterns } of this.secrets) {
      // The quick test first: most text holds no key at all.
      if (!out.includes(secret) && !out.includes(encoded)) continue;
      for (const pattern of patterns) out = out.replace(pattern, MASK);
    }
    return out;
  }
}

/** Keys shorter than this show none of their characters. */
const MASK_MIN_KEY_LENGTH = 8;

/**
 * A key as `auth status`, `auth login` and `doctor` show it: the last
 * characters, so two keys can be told apart, but at most a quarter of the key
 * and never more than 4 (a 5-character key showing 4 would all but give it
 * away); nothing of a key under 8 characters.
 */
export function maskKey(key: string): string {
  if (key.length < MASK_MIN_KEY_LENGTH) return MASK;
  const shown = Math.min(4, Math.floor(key.length / 4));
  return `${MASK}${key.slice(-shown)}`;
}
