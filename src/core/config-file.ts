// Reading config.json: a regular file of the shape the tool writes, nothing else. A FIFO there once
// blocked every command until SIGKILL, and a link was written through; so it is opened O_NONBLOCK
// and O_NOFOLLOW, and anything else is refused unread.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import * as z from 'zod/mini';
import { hinted, UsageError } from './errors.js';
import { kindOf } from './file-kind.js';
import { defaultProblem } from './profile-defaults.js';
import { describeIssue, type SchemaIssue } from './response-issues.js';

/** A file past it is not one the tool wrote. */
const MAX_CONFIG_BYTES = 1024 * 1024;
const FIX_HINT = 'Fix the file, or move it away and run `email auth login` again.';

const text = z.string({ error: 'expected a string' });
const defaultValue = (key: 'list' | 'listName' | 'output' | 'pager') => z.optional(text.check(z.refine((v) => defaultProblem(key, v) === undefined, { error: (issue) => defaultProblem(key, String(issue.input), false) ?? 'invalid' })));
const defaultsShape = z.looseObject(
  { list: defaultValue('list'), listName: defaultValue('listName'), output: defaultValue('output'), pager: defaultValue('pager') },
  { error: 'expected an object (list, listName, output, pager)' },
);
// Loose: a field another version wrote is kept when this one writes the file back.
const profileShape = z.looseObject(
  {
    baseUrl: z.optional(text),
    apiKey: z.optional(text),
    keyStore: z.optional(z.enum(['keychain', 'file'], { error: 'expected "keychain" or "file"' })),
    defaults: z.optional(defaultsShape),
  },
  { error: 'expected an object (a profile)' },
);
const configShape = z.looseObject(
  {
    defaultProfile: z.optional(text),
    profiles: z.optional(z.record(z.string(), profileShape, { error: 'expected an object (profile names to profiles)' })),
  },
  { error: 'expected an object' },
);
export type ConfigShape = z.infer<typeof configShape>;

/** As ssh judges its config: others who could write it could name where the key goes, or a pager to run. */
export function configFileProblem(path: string): UsageError | undefined {
  let info: Stats;
  try {
    info = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return cannotRead(path, err);
  }
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
  const checked = configShape.safeParse(raw);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0] as SchemaIssue | undefined;
  throw hinted(new UsageError(`the config file ${path} does not have the expected shape: ${describeIssue(issue, raw)}`), FIX_HINT);
}
