// Holds the state and persists it, debounced (the gap grows with the last write's duration, so a
// big state never takes much of the server's time) and atomic (temporary file, fsync, rename,
// directory fsync), so a kill leaves either the old or the new complete file.
import { randomUUID } from 'node:crypto';
import { closeSync, constants, fstatSync, fsyncSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { STATE_VERSION, type State } from './types.js';

const PERSIST_DEBOUNCE_MS = 200;

export class StateFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateFileError';
  }
}

export class Store {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  private writes = 0;
  private closed = false;
  private lastWriteMs = 0;

  constructor(
    public state: State,
    private readonly statePath?: string,
  ) {}

  /**
   * Marks the state changed and schedules a write. With a function, runs it on
   * the state first and returns its result.
   */
  mutate<T = void>(change?: (state: State) => T): T {
    const result = change ? change(this.state) : (undefined as T);
    this.dirty = true;
    this.schedule();
    return result;
  }

  /** Number of completed writes of the state file (tests, diagnostics). */
  get writeCount(): number {
    return this.writes;
  }

  /** Writes now if anything changed since the last write. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.dirty || !this.statePath) return;
    this.dirty = false;
    const started = performance.now();
    writeStateFile(this.statePath, this.state);
    this.lastWriteMs = performance.now() - started;
    this.writes++;
  }

  /** Final write; no more writes are scheduled afterwards. */
  close(): void {
    this.flush();
    this.closed = true;
  }

  private schedule(): void {
    if (!this.statePath || this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      try {
        this.flush();
      } catch (error) {
        // Keep serving; the next change retries the write. Surface it once on stderr.
        this.dirty = true;
        process.emitWarning(`sandbox: could not write state file: ${(error as Error).message}`);
      }
    }, Math.max(PERSIST_DEBOUNCE_MS, 4 * this.lastWriteMs));
    this.timer.unref();
  }
}

/** Atomic write: temp file in the same directory + fsync + rename + fsync of the directory. */
export function writeStateFile(path: string, state: State): void {
  const target = resolve(path);
  const dir = dirname(target);
  // A fresh name per write: writers in one process (or several) never share a temporary file.
  const temp = join(dir, `.${basename(target)}.tmp-${process.pid}-${randomUUID()}`);
  const data = JSON.stringify(state);
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeAll(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncDirectory(dir);
}

function writeAll(fd: number, data: string): void {
  const buffer = Buffer.from(data, 'utf8');
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
}

function fsyncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Loads a state file. Returns undefined when it does not exist. An unreadable
 * or foreign file is refused with a clear error rather than silently replaced.
 * Leftover temporary files of a killed writer are removed.
 */
export function readStateFile(path: string): State | undefined {
  const target = resolve(path);
  removeStaleTempFiles(target);
  let text: string;
  let fd: number | undefined;
  try {
    // O_NONBLOCK and a regular file only: a FIFO opened or read here would
    // block the whole process (no signal handled) until a writer came, and
    // /dev/zero would be read without end; neither can take the state back.
    fd = openSync(target, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    if (!fstatSync(fd).isFile()) throw new StateFileError(`state file ${path} is not a regular file; choose a file path for --state`);
    text = readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`cannot read state file ${path}: ${(error as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(`state file ${path} is not valid JSON (${(error as Error).message}); move it away or choose another --state file`);
  }
  if (!isState(parsed)) {
    throw new StateFileError(`state file ${path} is not a sandbox state file (version ${STATE_VERSION} expected)`);
  }
  return parsed;
}

function isState(value: unknown): value is State {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v.version === STATE_VERSION &&
    typeof v.lists === 'object' && v.lists !== null &&
    typeof v.suppression === 'object' && v.suppression !== null &&
    Array.isArray(v.webhooks)
  );
}

function removeStaleTempFiles(target: string): void {
  const prefix = `.${basename(target)}.tmp-`;
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(prefix)) rmSync(join(dirname(target), name), { force: true });
  }
}
