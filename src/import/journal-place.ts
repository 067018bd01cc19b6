// Where an import's journal sits when --journal does not say (CLI.md
// "--journal"): beside the input, or, where its folder cannot be written (a
// read-only share), in the user's state directory, named after the input's
// full path so `--resume` finds it.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, chmod, mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { UsageError } from '../core/errors.js';

export interface JournalPlace {
  path: string;
  /** Why it is not beside the input (its folder cannot be written): said on stderr. */
  moved?: string;
}

export async function defaultJournalPlace(inputPath: string, listId: string, env: Readonly<Record<string, string | undefined>>): Promise<JournalPlace> {
  const name = `${basename(inputPath)}.${listId.slice(0, 8).toLowerCase()}.import-journal`;
  const beside = join(dirname(inputPath), name);
  const folder = dirname(inputPath);
  const unwritable = await access(folder, constants.W_OK).then(
    () => undefined,
    (err: NodeJS.ErrnoException) => err.code ?? err.message,
  );
  const elsewhere = join(stateDirectory(env), `${createHash('sha256').update(inputPath).digest('hex').slice(0, 16)}.${name}`);
  if (unwritable === undefined) {
    // A journal an earlier run left in the state directory (the folder was read-only then) is still this import's.
    const here = await exists(beside);
    return !here && (await exists(elsewhere)) ? { path: elsewhere, moved: `${folder} held no journal of this import` } : { path: beside };
  }
  const dir = dirname(elsewhere);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700);
  } catch (err) {
    throw new UsageError(`${folder} cannot be written (${unwritable}), nor ${dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): give the journal a place with --journal <file>`);
  }
  return { path: elsewhere, moved: `${folder} cannot be written (${unwritable})` };
}

/** The XDG spec takes an absolute $XDG_STATE_HOME only. */
function stateDirectory(env: Readonly<Record<string, string | undefined>>): string {
  const base = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'email-cli', 'import-journals');
}

function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
