// One email-syntax check for every client-side validation, so the same addresses are refused
// everywhere; close to what services accept in practice.

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
 * Dashed or as the 32 hex digits the real service issues (CLI.md "identifiers"). Ids are sent
 * as given: the service knows its ids undashed, so rewriting could make it miss one.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value) || UNDASHED_UUID.test(value);
}

// Invisible characters that ride along when an address is copied from a page: none can be part
// of an address, so removing them is safe. A no-break space is not cleaned: an address with a
// space in it is two things run together, not one to guess at.
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;

/** Only when cleaning makes a valid address. */
export function cleanInvisible(trimmed: string): { address: string; removed: string[] } | undefined {
  const removed = new Set<string>();
  const address = trimmed.replace(INVISIBLE, (c) => (removed.add(codePoint(c)), '')).trim();
  if (removed.size === 0 || !isValidEmail(address)) return undefined;
  return { address, removed: [...removed] };
}

/** Controls and direction marks are left to output/sanitize.ts, which escapes them wherever text is printed. */
export function showInvisible(text: string): string {
  return text.replace(/[\u00A0\u00AD\u1680\u180E\u2000-\u200D\u202F\u205F\u2060-\u2064\u3000\uFEFF]/g, (c) => `<${codePoint(c)}>`);
}

function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
