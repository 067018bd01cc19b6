// `--failures <file.csv>`: every row not imported, streamed to disk with its
// original cells plus Line, Outcome, Code and Message (CLI.md "--failures"), so
// the fixed file imports again as it is. Refused rows are written at the end,
// their cells read again from the input: keeping them until the answer is what this avoids.
import { createWriteStream, type Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { CliError, ExitCode, UsageError } from '../core/errors.js';
import { PrivateFile, UnsafePathError } from '../core/private-file.js';
import { openWriteThrough, writeTarget } from '../core/write-target.js';
import { csvCell, neutralize, spreadsheetSafe, unescapeCells } from '../output/sanitize.js';
import { FAILURE_COLUMNS } from './mapping.js';
import type { RowSource } from './source.js';

/** `skipped`: not sent because the file marks the row unsubscribed or without permission (status-columns.ts); `partial`: imported without a value. */
export type FailureOutcome = 'failed' | 'rejected' | 'duplicate' | 'skipped' | 'partial';

export class FailuresFile {
  private readonly cell: (value: string) => string;
  private readonly separator: string;
  private failure: Error | undefined;
  // Rows the service refused, written at the end: their lines and [code, message] (shared by consecutive rows).
  private readonly laterLines: number[] = [];
  private readonly laterReasons: [string, string, FailureOutcome][] = [];

  private constructor(
    readonly path: string,
    private readonly target: Target,
    /** The user's columns: a failures file imported again keeps its own, not its earlier Line…Message blocks. */
    private readonly width: number,
    /** The input's header: cells beyond it are kept in the message. */
    private readonly headerWidth: number,
    /** The input is a failures file: its cells are read back as they were before they were made spreadsheet-safe, and its Line column is the row's line. */
    private readonly fromFailuresFile: boolean,
    delimiter: string,
  ) {
    this.separator = delimiter;
    // Formula-safe cells (CLI.md "untrusted text"), quoted when they hold the delimiter.
    this.cell = delimiter === ',' ? csvCell : (value) => quoteFor(spreadsheetSafe(value), delimiter);
    target.stream.on('error', (err) => (this.failure ??= err));
  }

  private get stream(): Writable {
    return this.target.stream;
  }

  /**
   * Creates the file (as a temporary one, 0600), or opens the device or FIFO
   * at `path`, or takes `stdout` for `-`, and writes its header; a path that
   * cannot be written is refused before anything is sent.
   */
  static async open(path: string, header: string[], delimiter: string, userWidth = header.length, o: OpenOptions = {}): Promise<FailuresFile> {
    const target = await openTarget(path, o);
    // What the summary and its messages name ("see standard output").
    const writer = new FailuresFile(path === '-' ? 'standard output' : path, target, userWidth, header.length, userWidth < header.length, delimiter);
    writer.stream.write(`\uFEFF${[...header.slice(0, userWidth), ...FAILURE_COLUMNS].map(writer.cell).join(writer.separator)}\r\n`);
    return writer;
  }

  /** Writes one row now; past the stream's buffer, reading waits for writable(). */
  write(record: readonly string[], line: number, outcome: FailureOutcome, code: string, message: string): void {
    this.append(record, line, outcome, code, message);
  }

  /** A row the service refused (or imported without a value: `partial`), known by its line: written by writeLater(). */
  later(line: number, code: string, message: string, outcome: FailureOutcome = 'failed'): void {
    const last = this.laterReasons[this.laterReasons.length - 1];
    this.laterLines.push(line);
    this.laterReasons.push(last && last[0] === code && last[1] === message && last[2] === outcome ? last : [code, message, outcome]);
  }

  /** Writes the rows given to later(), in line order, reading their cells from `rows` (a fresh read of the input), only as far as the last one. */
  async writeLater(open: () => Promise<RowSource>): Promise<void> {
    if (this.laterLines.length === 0) return;
    const lines = this.laterLines;
    const order = lines.map((_, i) => i).sort((a, b) => lines[a]! - lines[b]!);
    const rows = await open();
    try {
      let k = 0;
      while (k < order.length) {
        const record = rows.read();
        if (record === null) {
          if (!(await rows.more())) break;
          continue;
        }
        if (this.fromFailuresFile) unescapeCells(record);
        let room = true;
        while (k < order.length && lines[order[k]!] === rows.line) {
          const [code, message, outcome] = this.laterReasons[order[k]!]!;
          room = this.append(record, rows.line, outcome, code, message) && room;
          k++;
        }
        if (!room) await this.writable();
      }
    } finally {
      rows.close();
    }
  }

  /** Writes one row; false when the file's buffer is full. */
  private append(record: readonly string[], line: number, outcome: FailureOutcome, code: string, message: string): boolean {
    const cells: string[] = [];
    for (let i = 0; i < this.width; i++) cells.push(this.cell(record[i] ?? ''));
    // Cells beyond the header have no column of their own: they are kept in the message.
    const extra = record.length > this.headerWidth ? ` [extra cells: ${record.slice(this.headerWidth).map((c) => JSON.stringify(c)).join(', ')}]` : '';
    // Code and Message come from the service or from us, not the user's file: no control acts when the file is `cat`.
    cells.push(String(this.firstLine(record, line)), outcome, this.cell(neutralize(code)), this.cell(`${neutralize(message)}${extra}`));
    return this.stream.write(`${cells.join(this.separator)}\r\n`);
  }

  /**
   * The row's line in the first file imported: for a failures file, its Line
   * column (the first block's, in a file that has several), so a row keeps
   * its line through every round trip; a row the user added has none, and
   * gets its line in the file being read.
   */
  private firstLine(record: readonly string[], line: number): number {
    if (!this.fromFailuresFile) return line;
    const cell = record[this.width]?.trim() ?? '';
    return /^[1-9][0-9]{0,14}$/.test(cell) ? Number(cell) : line;
  }

  /** Resolves once the file's buffer has room again (at once unless it is full). */
  writable(): Promise<void> {
    if (!this.stream.writableNeedDrain) return Promise.resolve();
    // A stream destroyed meanwhile (standard output gone) never drains: its end lets the rows go on, unwritten.
    return new Promise((resolve) => {
      this.stream.once('drain', resolve);
      this.stream.once('close', resolve);
    });
  }

  /** Finishes the file and puts it in place (a rename over a regular file, never a link), or ends the stream written through. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.stream.end(resolve);
    });
    if (!this.failure) {
      try {
        await this.target.finish();
        return;
      } catch (err) {
        this.failure = err as Error;
      }
    }
    await this.target.discard();
    throw new FailuresFileError(`--failures ${this.path}: writing failed (${this.failure.message})`);
  }
}

/** Where the rows go, and what becomes of it at the end. */
interface Target {
  stream: Writable;
  /** Once the stream has ended: the file put in place. */
  finish(): Promise<void>;
  /** After a failure: a temporary file removed. */
  discard(): Promise<void>;
}

interface OpenOptions {
  /** Where `-` writes: standard output, given by the command. */
  stdout?: Writable;
  /** Ends the wait for a FIFO's reader (Ctrl-C). */
  signal?: AbortSignal;
  onNotice?: (message: string) => void;
}

async function openTarget(path: string, o: OpenOptions): Promise<Target> {
  if (path === '-') {
    if (!o.stdout) throw new Error('--failures - needs the standard output stream');
    return { stream: o.stdout, finish: async () => undefined, discard: async () => undefined };
  }
  try {
    if ((await failuresTarget(path)) === 'stream') {
      const onWait = () => o.onNotice?.(`--failures ${path} is a FIFO: waiting for a reader before the import starts (Ctrl-C stops)`);
      const stream = await openWriteThrough(path, { signal: o.signal, onWait });
      return { stream, finish: async () => undefined, discard: async () => void stream.destroy() };
    }
    const file = await PrivateFile.create(path);
    // The descriptor stays the file's own (a FileHandle given to a stream is the stream's, and a sync on it
    // waits forever): the stream writes to its number, and finish() syncs and renames the file when it is done.
    const stream = createWriteStream('', { fd: file.handle.fd, autoClose: false });
    return {
      stream,
      finish: async () => {
        await file.commit();
        await file.close();
      },
      discard: () => file.discard(),
    };
  } catch (err) {
    if (err instanceof CliError) throw err;
    if (err instanceof UnsafePathError) throw refused(err);
    throw new UsageError(`--failures ${path}: cannot write it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** The rule of every path written (core/write-target.ts), for --failures: a device or a FIFO is written through. */
async function failuresTarget(path: string): Promise<'none' | 'file' | 'stream'> {
  try {
    return await writeTarget(path, { streams: true });
  } catch (err) {
    throw err instanceof UnsafePathError ? refused(err) : err;
  }
}

function refused(err: UnsafePathError): UsageError {
  const link = err.reason === 'is a symbolic link' ? ', never followed or replaced' : '';
  return new UsageError(`--failures ${err.message}${link}: name a file, a device or a FIFO, or - for standard output`);
}

function quoteFor(value: string, delimiter: string): string {
  return value.includes(delimiter) || /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The failures file could not be written to the end (a full disk): the import itself went on. */
class FailuresFileError extends CliError {
  readonly exitCode = ExitCode.failure;
}

/**
 * Refuses a --failures path that is the input file or the journal, by any
 * path (CLI.md "--failures"): the same file after following links (device and
 * inode: a hard link, /dev/stdin, /proc/self/fd/0 too), or, for a journal not
 * written yet, the same place. The input is the file it was read from (fd 0's
 * for standard input), not the copy of a pipe. Called before anything is sent.
 */
export async function refuseFailuresClash(
  failuresPath: string,
  input: { path: string; name: string; fromStdin: boolean; device?: { dev: number; ino: number } },
  journalPath: string | undefined,
): Promise<void> {
  if (failuresPath === '-') return;
  const target = await stat(failuresPath).catch(() => undefined);
  const source = input.device ?? (input.fromStdin ? undefined : await stat(input.path).catch(() => undefined));
  if (sameFile(target, source)) {
    const which = input.fromStdin ? '(standard input)' : input.name;
    throw new UsageError(`--failures ${failuresPath} is the input file ${which}: writing the failures there would destroy the rows being imported; name another file`);
  }
  if (journalPath) {
    const journal = await stat(journalPath).catch(() => undefined);
    if (sameFile(target, journal) || (await place(failuresPath)) === (await place(journalPath))) {
      throw new UsageError(`--failures ${failuresPath} is the journal of this import (${journalPath}); name another file`);
    }
  }
  // What is at the path, by the rule of every path written: after the clashes, which say more (/dev/stdin is a link too).
  await failuresTarget(failuresPath);
}

function sameFile(a: Stats | undefined, b: { dev: number; ino: number } | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/** Where a path's entry lives: its directory with links resolved, and its name. */
async function place(path: string): Promise<string> {
  const dir = await realpath(dirname(path)).catch(() => dirname(path));
  return join(dir, basename(path));
}
