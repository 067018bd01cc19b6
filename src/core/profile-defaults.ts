// Per-profile defaults a user repeats (CLI.md `email config`): the default
// `--list`, the output format and the pager. One table of keys and checks,
// read by the config file's shape (config-file.ts) and by `email config set`,
// so a value the command refuses can never be read back from the file.
import { hinted, UsageError } from './errors.js';

export const DEFAULT_KEYS = ['list', 'output', 'pager'] as const;
export type DefaultKey = (typeof DEFAULT_KEYS)[number];
export type ProfileDefaults = Partial<Record<DefaultKey, string>>;

/** The formats of `--output` (src/commands/globals.ts offers the same). */
export const OUTPUT_FORMAT_NAMES = ['table', 'json', 'ndjson', 'csv'] as const;

const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;

/** Why `value` cannot be the `key` default, or undefined when it can. */
export function defaultProblem(key: DefaultKey, value: string): string | undefined {
  switch (key) {
    case 'list':
      return UUID.test(value.trim()) ? undefined : `list must be a list id (a UUID), got "${value}"`;
    case 'output':
      return (OUTPUT_FORMAT_NAMES as readonly string[]).includes(value.trim().toLowerCase()) ? undefined : `output must be one of ${OUTPUT_FORMAT_NAMES.join(', ')}, got "${value}"`;
    case 'pager':
      return value.trim() === '' ? 'pager must be a command (e.g. "less -R"), got nothing' : undefined;
  }
}

export function isDefaultKey(key: string): key is DefaultKey {
  return (DEFAULT_KEYS as readonly string[]).includes(key);
}

/** The key as the user gave it, checked: exit 2 naming the known ones. */
export function checkDefaultKey(key: string): DefaultKey {
  const lower = key.toLowerCase();
  if (isDefaultKey(lower)) return lower;
  throw new UsageError(`unknown setting "${key}"; settings: ${DEFAULT_KEYS.join(', ')}`);
}

/** The value as stored: a list id lower-cased with its dashes, a format in lower case, a pager as given. Exit 2 when it does not fit. */
export function normalizeDefault(key: DefaultKey, value: string): string {
  const problem = defaultProblem(key, value);
  if (problem) throw hinted(new UsageError(problem), `\`email config set ${key} <value>\`; nothing was stored.`);
  const v = value.trim();
  if (key === 'output') return v.toLowerCase();
  if (key === 'list') {
    const hex = v.replace(/-/g, '').toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  return v;
}
