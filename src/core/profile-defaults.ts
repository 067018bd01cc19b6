// Per-profile defaults (CLI.md `email config`). One table of keys and checks, read by the config
// file's reader and by `config set`, so a value the command refuses can never be read back.
import { hinted, UsageError } from './errors.js';

export const DEFAULT_KEYS = ['list', 'output', 'pager'] as const;
export type DefaultKey = (typeof DEFAULT_KEYS)[number];
/** The default list's name is kept too: the service cannot read a list's own fields. */
export type ProfileDefaults = Partial<Record<DefaultKey | 'listName', string>>;

export const OUTPUT_FORMAT_NAMES = ['table', 'json', 'ndjson', 'csv'] as const;
export const PAGER_OFF = ['none', 'off'] as const;

/** Far longer than any list's name; the name is shown on stderr, never sent. */
export const MAX_LIST_NAME = 200;

const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;

/** `shown`: with what was given (the config file's reader names it itself). */
export function defaultProblem(key: DefaultKey | 'listName', value: string, shown = true): string | undefined {
  const got = shown ? `, got "${value}"` : '';
  switch (key) {
    case 'list':
      return UUID.test(value.trim()) ? undefined : `list must be a list id (a UUID)${got}`;
    case 'listName':
      if (value.trim() === '') return "the list's name must not be blank";
      return value.length > MAX_LIST_NAME ? `the list's name must be at most ${MAX_LIST_NAME} characters` : undefined;
    case 'output':
      return (OUTPUT_FORMAT_NAMES as readonly string[]).includes(value.trim().toLowerCase()) ? undefined : `output must be one of ${OUTPUT_FORMAT_NAMES.join(', ')}${got}`;
    case 'pager':
      return value.trim() === '' ? `pager must be a command (e.g. "less -R"), or none to turn paging off${shown ? '; got nothing' : ''}` : undefined;
  }
}

/** Exit 2 when it does not fit. */
export function normalizeDefault(key: DefaultKey, value: string): string {
  const problem = defaultProblem(key, value);
  if (problem) throw hinted(new UsageError(problem), `\`email config set ${key} <value>\`; nothing was stored.`);
  const v = value.trim();
  if (key === 'output') return v.toLowerCase();
  if (key === 'pager') return v;
  const hex = v.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function storedPagerCommand(value: string): string | undefined {
  const v = value.trim();
  return (PAGER_OFF as readonly string[]).includes(v.toLowerCase()) || v === 'cat' ? undefined : v;
}

/** `after` adds what wins over a setting. */
export function describeDefaults(defaults: ProfileDefaults, after: Partial<Record<DefaultKey, string>> = {}): string | undefined {
  const shown = (key: DefaultKey, value: string) => `${key} ${value}${after[key] ? ` ${after[key]}` : ''}`;
  const parts: string[] = [];
  if (defaults.list) parts.push(shown('list', defaults.listName ? `${defaults.listName} (${defaults.list})` : defaults.list));
  if (defaults.output) parts.push(shown('output', defaults.output));
  if (defaults.pager) parts.push(shown('pager', defaults.pager));
  return parts.length ? parts.join(', ') : undefined;
}
