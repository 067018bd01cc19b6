// Where a run takes the profile's stored defaults (`email config`) for what
// it was not given: the output format when neither -o nor --json was typed,
// the pager when neither EMAIL_PAGER nor PAGER is set, and the list of a
// command given no --list. A flag or an environment variable always wins, so
// the config file is read only when one of them is missing, at most once a
// run. Loaded by src/cli.ts when a command runs, never for help.
import type { OutputFormat } from '../output/render.js';
import type { ProfileDefaults } from '../core/profile-defaults.js';
import { profileDefaults } from '../core/settings.js';
import type { AnyCommand, ArgDecl, OptionDecl } from './define.js';

export interface StoredDefaults {
  profile: string;
  defaults: ProfileDefaults;
}

/** The profile's defaults, read on first call; a config file that cannot be read throws (exit 2) at each call. */
export type DefaultsReader = () => StoredDefaults;

export function defaultsReader(env: Readonly<Record<string, string | undefined>>, profileFlag: string | undefined, baseUrlFlag: string | undefined): DefaultsReader {
  let read: { value: StoredDefaults } | { error: unknown } | undefined;
  return () => {
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
}

/**
 * A default that changes only how the output looks (format, pager) is left
 * out when the config file cannot be read, and the run goes on: with its key
 * and base URL from the environment a command never opens the file (CI with a
 * broken or foreign config still runs), and one that needs the file says why.
 */
function lenient(read: DefaultsReader): ProfileDefaults {
  try {
    return read().defaults;
  } catch {
    return {};
  }
}

/** The stored format, when the command was given no -o, no --json and no --jq (jq prints its own results). */
export function storedOutput(read: DefaultsReader): OutputFormat | undefined {
  return lenient(read).output as OutputFormat | undefined;
}

/** The stored pager, as stored ("none" included): src/output/pager.ts weighs it after EMAIL_PAGER and PAGER. */
export function storedPager(read: DefaultsReader): string | undefined {
  return lenient(read).pager;
}

/**
 * Words that fit what the command does with the list (CLI.md: "a command
 * acting on a default list names it on stderr"): a subscriber goes into it,
 * a campaign, a segment or a field is made for it, the rest read or change on it.
 */
const PREPOSITION: Readonly<Record<string, string>> = { add: 'into', import: 'into', create: 'for' };

export interface DefaultListUse {
  raw: Record<string, unknown>;
  /** The stderr line that names the list, with its fields for machine mode. */
  note?: { message: string; fields: { list: string; listName?: string } };
}

/**
 * A command that needs a --list it was not given takes the profile's default
 * (`email config set list`), and says so; a flag or an argument wins. A
 * repeated --list (campaigns create) takes it only when given neither --list
 * nor --segment, the other way to name its targets.
 */
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
