// Secrets never reach a terminal or a log: every debug line and error message
// that could carry the key goes through a Redactor first.

export const MASK = '***';

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

/** Shows only the last four characters of a key, as `auth status` does. */
export function maskKey(key: string): string {
  if (key.length <= 4) return MASK;
  return `${MASK}${key.slice(-4)}`;
}
