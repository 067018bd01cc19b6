// One email-syntax check for every client-side validation (subscribers 1/211,
// campaigns 307/309, previews 371), so the tool refuses the same addresses
// everywhere. Deliberately close to what services accept in practice: a local
// part, one @, a domain with a dot and a TLD of letters; no spaces or quotes.

const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export function isValidEmail(raw: string): boolean {
  const value = raw.trim();
  if (value.length > 254) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > 64 || !LOCAL.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((l) => LABEL.test(l))) return false;
  return /^[A-Za-z]{2,63}$/.test(labels[labels.length - 1]!) || /^xn--[A-Za-z0-9-]+$/.test(labels[labels.length - 1]!);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UNDASHED_UUID = /^[0-9a-f]{32}$/i;

/**
 * Identifiers are UUIDs (service-spec.md "Conventions"), in any letter case,
 * with their dashes or as the 32 hex digits the real service issues (CLI.md
 * "identifiers"). The tool sends an id as the user gave it: the real service
 * knows its ids undashed, so rewriting them to the dashed form could make it
 * miss a resource it has.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value) || UNDASHED_UUID.test(value);
}

// Characters that show as nothing and ride along when an address is copied
// from a web page, a PDF or a word processor: zero-width space, non-joiner and
// joiner, word joiner, a byte-order mark, a soft hyphen. None can be part of
// an address, and removing them changes nothing a reader sees: cleaning is
// safe. A no-break space inside an address is not cleaned (trim() takes it off
// the ends): it stands where a space was, and an address with a space in it
// is two things run together, not one to guess at.
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;

/**
 * The address without the invisible characters, and which were removed (as
 * U+XXXX), when that makes a valid address; undefined when it does not (or
 * there were none).
 */
export function cleanInvisible(trimmed: string): { address: string; removed: string[] } | undefined {
  const removed = new Set<string>();
  const address = trimmed.replace(INVISIBLE, (c) => (removed.add(codePoint(c)), '')).trim();
  if (removed.size === 0 || !isValidEmail(address)) return undefined;
  return { address, removed: [...removed] };
}

/**
 * Characters nobody can see (zero-width and invisible format characters,
 * spaces other than ' '), shown by their code point: "zw<U+200B>sp@example.com".
 * Controls and direction marks are left to output/sanitize.ts neutralize(),
 * which shows them as escapes wherever text from a file is printed.
 */
export function showInvisible(text: string): string {
  return text.replace(/[\u00A0\u00AD\u1680\u180E\u2000-\u200D\u202F\u205F\u2060-\u2064\u3000\uFEFF]/g, (c) => `<${codePoint(c)}>`);
}

function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
