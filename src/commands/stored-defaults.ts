// The profile's stored defaults (format, pager, list) for what a run was not
// given. A flag or an environment variable always wins, so the config file is
// read only when one is missing, at most once a run.
import type { OutputFormat } from '../output/result.js';
import type { ProfileDefaults } from '../core/profile-defaults.js';
import { noConfigFile } from '../core/config.js';
import { profileDefaults } from '../core/settings.js';
import type { AnyCommand, ArgDecl, OptionDecl } from './define.js';

export interface StoredDefaults {
  profile: string;
  defaults: ProfileDefaults;
}

/** Read on first call; an unreadable config file throws (exit 2) at each call. `none`: surely no config file. */
export type DefaultsReader = { (): StoredDefaults; none(): boolean };

export function defaultsReader(env: Readonly<Record<string, string | undefined>>, profileFlag: string | undefined, baseUrlFlag: string | undefined): DefaultsReader {
  let read: { value: StoredDefaults } | { error: unknown } | undefined;
  const reader = () => {
    if (!read) {
      try {
        read = { value: profileDefaults({ env, profileFlag, baseUrlFlag }) };
      } catch (error) {
        read = { error };
      }
    }
    if ('error' in read) throw read.error;
    return read.value;
  };
  return Object.assign(reader, { none: () => !read && noConfigFile(env) });
}

/**
 * A default for looks only (format, pager) is left out when the config is unreadable, so CI with
 * a broken config still runs; with no config file at all (CI again) the directory is not judged either.
 */
function lenient(read: DefaultsReader): ProfileDefaults {
  if (read.none()) return {};
  try {
    return read().defaults;
  } catch {
    return {};
  }
}

/** Only when given no -o, --json or --jq (jq prints its own results). */
export function storedOutput(read: DefaultsReader): OutputFormat | undefined {
  return lenient(read).output as OutputFormat | undefined;
}

/** As stored ("none" included): the pager weighs it after EMAIL_PAGER and PAGER. */
export function storedPager(read: DefaultsReader): string | undefined {
  return lenient(read).pager;
}

/** Words that fit what the command does with the default list, for the stderr line that names it. */
const PREPOSITION: Readonly<Record<string, string>> = { add: 'into', import: 'into', create: 'for' };

export interface DefaultListUse {
  raw: Record<string, unknown>;
  note?: { message: string; fields: { list: string; listName?: string } };
}

/** A repeated --list (campaigns create) takes the default only when given neither --list nor --segment. */
export function withDefaultList(definition: AnyCommand, opts: Record<string, unknown>, positional: readonly unknown[], read: DefaultsReader): DefaultListUse {
  const option = (Object.values(definition.options ?? {}) as OptionDecl[]).find((d) => d.flag === '--list' && (d.kind === 'text' || d.kind === 'list'));
  const arg = (Object.values(definition.args ?? {}) as ArgDecl[]).find((d) => d.kind === 'id' && d.flag === '--list');
  if (!option && !arg) return { raw: opts };
  if (option?.kind === 'list' ? given(opts.list) || given(opts.segment) : opts.list !== undefined || (arg && positional[0] !== undefined)) return { raw: opts };
  const { profile, defaults } = read();
  if (!defaults.list) return { raw: opts };
  const list = defaults.list;
  const raw = { ...opts, list: option?.kind === 'list' ? [list] : list };
  if (!defaults.listName) return { raw, note: { message: `list ${list} (profile "${profile}"'s default list)`, fields: { list } } };
  const words = PREPOSITION[definition.name] ?? 'on';
  return { raw, note: { message: `${words} ${defaults.listName} (${list}, the profile's default list)`, fields: { list, listName: defaults.listName } } };
}

const given = (value: unknown) => value !== undefined && !(Array.isArray(value) && value.length === 0);
