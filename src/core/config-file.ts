// Reading config.json (CLI.md "config location"): a regular file and nothing
// else, of the shape the tool writes. A FIFO there once blocked every command
// that read it until SIGKILL (a blocking open waits for a writer on a thread
// no signal frees); a link was read and written through, and its target
// chmodded 0600; a field of the wrong type surfaced as a TypeError. The file
// is opened O_NONBLOCK and O_NOFOLLOW, as src/core/bounded-read.ts opens the
// files a user names, and what is not a regular file is refused unread.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { hinted, UsageError } from './errors.js';
import { kindOf } from './file-kind.js';
import { defaultProblem, type ProfileDefaults } from './profile-defaults.js';
import { describeIssue, type SchemaIssue } from './response-issues.js';

/** Far more than any number of profiles: a file past it is not one the tool wrote. */
const MAX_CONFIG_BYTES = 1024 * 1024;
const FIX_HINT = 'Fix the file, or move it away and run `email auth login` again.';

/** The file as read: loose objects, so a field another version of the tool wrote is kept when this one writes the file back. */
export interface ConfigShape {
  defaultProfile?: string;
  profiles?: Record<string, { baseUrl?: string; apiKey?: string; keyStore?: 'keychain' | 'file'; defaults?: ProfileDefaults }>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const STRING = 'expected a string';

/**
 * The first field that does not fit the shape the tool writes, or undefined.
 * Checked by hand, not with a schema: every command reads this file, and a
 * schema library would be loaded for it by commands that need none.
 */
function shapeIssue(raw: unknown): SchemaIssue | undefined {
  const issue = (path: PropertyKey[], message: string): SchemaIssue => ({ path, message });
  if (!isObject(raw)) return issue([], 'expected an object');
  if (raw.defaultProfile !== undefined && typeof raw.defaultProfile !== 'string') return issue(['defaultProfile'], STRING);
  if (raw.profiles === undefined) return undefined;
  if (!isObject(raw.profiles)) return issue(['profiles'], 'expected an object (profile names to profiles)');
  for (const [name, profile] of Object.entries(raw.profiles)) {
    const at = ['profiles', name];
    if (!isObject(profile)) return issue(at, 'expected an object (a profile)');
    for (const key of ['baseUrl', 'apiKey'] as const) if (profile[key] !== undefined && typeof profile[key] !== 'string') return issue([...at, key], STRING);
    if (profile.keyStore !== undefined && profile.keyStore !== 'keychain' && profile.keyStore !== 'file') return issue([...at, 'keyStore'], 'expected "keychain" or "file"');
    const { defaults } = profile;
    if (defaults === undefined) continue;
    if (!isObject(defaults)) return issue([...at, 'defaults'], 'expected an object (list, listName, output, pager)');
    for (const key of ['list', 'listName', 'output', 'pager'] as const) {
      const value = defaults[key];
      if (value === undefined) continue;
      // A stored default is held to the rule `email config set` applies.
      const problem = typeof value === 'string' ? defaultProblem(key, value, false) : STRING;
      if (problem) return issue([...at, 'defaults', key], problem);
    }
  }
  return undefined;
}

/**
 * Refused unread: anything at `path` but a regular file (a link to one
 * included), and, as ssh judges its config, a file of another user (root
 * aside) or one others can write to: they could name the base URL the key
 * goes to, or a pager to run. Undefined when there is nothing there.
 */
export function configFileProblem(path: string): UsageError | undefined {
  let info: Stats | undefined;
  try {
    // No file is the common case: answered without building an error.
    info = lstatSync(path, { throwIfNoEntry: false });
  } catch (err) {
    return cannotRead(path, err);
  }
  if (!info) return undefined;
  if (!info.isFile()) return notRegular(path, kindOf(info));
  if (process.platform === 'win32') return undefined;
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid !== undefined && info.uid !== uid && info.uid !== 0) {
    return hinted(new UsageError(`the config file ${path} belongs to user ${info.uid}, not to you: refusing to use it`), `Run the tool as the user who logged in, or move the file away and run \`email auth login\` again.`);
  }
  if (info.mode & 0o022) {
    return hinted(
      new UsageError(`the config file ${path} is 0${(info.mode & 0o777).toString(8)}: other users can write to it, so they could change where the key goes; refusing to use it`),
      `chmod 600 '${path}'`,
    );
  }
  return undefined;
}

function notRegular(path: string, kind: string): UsageError {
  const why = kind === 'a symbolic link' ? 'the tool keeps keys there and sets its mode, so it must not write through a link' : 'it must be a regular file';
  return hinted(
    new UsageError(`the config file ${path} is ${kind}, not a regular file (${why})`),
    `Move it away (mv '${path}' '${path}.moved'); \`email auth login\` then writes a new one, or point EMAIL_CONFIG_DIR at a directory of yours.`,
  );
}

function cannotRead(path: string, err: unknown): UsageError {
  return new UsageError(`cannot read the config file ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
}

/** The file's text, or undefined when there is none; throws UsageError for anything but a regular file of a sane size. */
export function readConfigText(path: string): string | undefined {
  const problem = configFileProblem(path);
  if (problem) throw problem;
  let fd: number;
  try {
    // O_NOFOLLOW: a link put there since the check is refused too (ELOOP), not followed.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw notRegular(path, 'a symbolic link');
    throw cannotRead(path, err);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw notRegular(path, kindOf(info));
    if (info.size > MAX_CONFIG_BYTES) throw hinted(new UsageError(`the config file ${path} is larger than 1 MiB: not a file the tool wrote`), FIX_HINT);
    return readFileSync(fd, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw cannotRead(path, err);
  } finally {
    closeSync(fd);
  }
}

/** The parsed file, checked against the shape the tool writes; exit 2 naming the first field that does not fit. */
export function parseConfigText(path: string, content: string): ConfigShape {
  let raw: unknown;
  try {
    raw = content.trim() === '' ? {} : JSON.parse(content);
  } catch (err) {
    throw hinted(new UsageError(`the config file ${path} is not valid JSON (${(err as Error).message})`), FIX_HINT);
  }
  const issue = shapeIssue(raw);
  if (!issue) return raw as ConfigShape;
  throw hinted(new UsageError(`the config file ${path} does not have the expected shape: ${describeIssue(issue, raw)}`), FIX_HINT);
}
