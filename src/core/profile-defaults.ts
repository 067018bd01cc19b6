// Per-profile defaults a user repeats (CLI.md `email config`): for now the
// default `--list`; the output format and the pager join when the commands
// read them, never before (a stored setting nothing reads would lie). One table of keys and checks,
// read by the config file's shape (config-file.ts) and by `email config set`,
// so a value the command refuses can never be read back from the file.
import { hinted, UsageError } from './errors.js';

export const DEFAULT_KEYS = ['list'] as const;
export type DefaultKey = (typeof DEFAULT_KEYS)[number];
export type ProfileDefaults = Partial<Record<DefaultKey, string>>;

const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;

/** Why `value` cannot be the `key` default, or undefined when it can. */
export function defaultProblem(key: DefaultKey, value: string): string | undefined {
  switch (key) {
    case 'list':
      return UUID.test(value.trim()) ? undefined : `list must be a list id (a UUID), got "${value}"`;
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

/** The value as stored: a list id lower-cased with its dashes. Exit 2 when it does not fit. */
export function normalizeDefault(key: DefaultKey, value: string): string {
  const problem = defaultProblem(key, value);
  if (problem) throw hinted(new UsageError(problem), `\`email config set ${key} <value>\`; nothing was stored.`);
  const hex = value.trim().replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
