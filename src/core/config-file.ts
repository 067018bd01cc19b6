// Reading config.json: a regular file of the shape the tool writes, nothing else. A FIFO there once
// blocked every command until SIGKILL, and a link was written through; so it is opened O_NONBLOCK
// and O_NOFOLLOW, and anything else is refused unread.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { hinted, UsageError } from './errors.js';
import { kindOf } from './file-kind.js';
import { defaultProblem, type ProfileDefaults } from './profile-defaults.js';
import { describeIssue, type SchemaIssue } from './response-issues.js';

/** A file past it is not one the tool wrote. */
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

/** As ssh judges its config: others who could write it could name where the key goes, or a pager to run. */
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

export function readConfigText(path: string): string | undefined {
  const problem = configFileProblem(path);
  if (problem) throw problem;
  let fd: number;
  try {
    // A link put there since the check is refused too (ELOOP).
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

/** Exit 2 naming the first field that does not fit. */
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
