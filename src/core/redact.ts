// Secrets never reach a terminal or a log: every debug line and error message
// that could carry the key goes through a Redactor first.

const MASK = '***';

export class Redactor {
  private readonly secrets: string[] = [];

  add(secret: string | undefined): void {
    // Very short values would mask innocent text; keys are long.
    if (secret && secret.length >= 4 && !this.secrets.includes(secret)) this.secrets.push(secret);
  }

  redact(text: string): string {
    let out = text.replace(/(Bearer\s+)(?!\*\*\*)[^\s"',;]+/gi, `$1${MASK}`);
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(MASK);
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(MASK);
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
