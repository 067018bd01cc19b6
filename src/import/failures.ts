// `--failures <file.csv>`: every row that was not imported, streamed to disk
// as its outcome becomes known (memory does not grow with the failures). Each
// row keeps its original cells, followed by Line, Outcome (failed, rejected,
// duplicate), Code and Message. The file uses the input's delimiter (and a BOM
// when the input had one), so it opens in the same spreadsheet the same way;
// once fixed it can be imported again as it is: the importer ignores these
// four trailing columns (mapping.ts FAILURE_COLUMNS).
//
// Rows rejected before sending and duplicates are written as the file is
// read; rows the service refused are written at the end, in line order, their
// cells read again from the file (the batches in flight keep only line numbers,
// batches.ts). The Line column gives the order of the input.
//
// The file holds personal data (CLI.md "--failures"): it is written to a
// temporary file beside the target, created 0600 with O_EXCL|O_NOFOLLOW (so
// nothing planted there is written through), and renamed over the target when
// it is complete. A rename replaces a symbolic link at the target rather than
// following it. A path that is the input or the journal, by whatever name,
// is refused before anything is sent (refuseFailuresClash).
import { constants, createWriteStream, type Stats, type WriteStream } from 'node:fs';
import { lstat, open, realpath, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { CliError, ExitCode, UsageError } from '../core/errors.js';
import { csvCell, spreadsheetSafe } from '../output/sanitize.js';
import { FAILURE_COLUMNS } from './mapping.js';

export type FailureOutcome = 'failed' | 'rejected' | 'duplicate';

export class FailuresWriter {
  private readonly cell: (value: string) => string;
  private readonly separator: string;
  private failure: Error | undefined;
  private rowsWritten = 0;

  private constructor(
    readonly path: string,
    private readonly temporary: string,
    private readonly stream: WriteStream,
    private readonly width: number,
    delimiter: string,
  ) {
    this.separator = delimiter;
    // Formula-safe cells (CLI.md "untrusted text"), quoted when they hold the delimiter.
    this.cell = delimiter === ',' ? csvCell : (value) => quoteFor(spreadsheetSafe(value), delimiter);
    stream.on('error', (err) => (this.failure ??= err));
  }

  /** Creates the file (as a temporary one, 0600) and writes its header; an unwritable path is refused before anything is sent. */
  static async open(path: string, header: string[], delimiter: string, bom: boolean): Promise<FailuresWriter> {
    const existing = await lstat(path).catch(() => undefined);
    if (existing?.isDirectory()) throw new UsageError(`--failures ${path} is a directory; name a file`);
    const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    let handle;
    try {
      // O_NOFOLLOW where the platform has it (not Windows, where O_EXCL alone refuses an existing link).
      handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
    } catch (err) {
      throw new UsageError(`--failures ${path}: cannot write it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    const stream = createWriteStream('', { fd: handle, autoClose: true });
    const writer = new FailuresWriter(path, temporary, stream, header.length, delimiter);
    writer.stream.write(`${bom ? '\uFEFF' : ''}${[...header, ...FAILURE_COLUMNS].map(writer.cell).join(writer.separator)}\r\n`);
    return writer;
  }

  get count(): number {
    return this.rowsWritten;
  }

  /** Writes one row; false when the file is busy (wait for drain() before writing much more). */
  write(record: readonly string[], line: number, outcome: FailureOutcome, code: string, message: string): boolean {
    const cells: string[] = [];
    for (let i = 0; i < this.width; i++) cells.push(this.cell(record[i] ?? ''));
    // Cells beyond the header have no column of their own: they are kept in the message.
    const extra = record.length > this.width ? ` [extra cells: ${record.slice(this.width).map((c) => JSON.stringify(c)).join(', ')}]` : '';
    cells.push(String(line), outcome, this.cell(code), this.cell(`${message}${extra}`));
    this.rowsWritten++;
    return this.stream.write(`${cells.join(this.separator)}\r\n`);
  }

  drain(): Promise<void> {
    if (!this.stream.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => this.stream.once('drain', resolve));
  }

  /** Finishes the file and puts it in place (the rename replaces whatever was at the path, a link included, without following it). */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.stream.end(resolve);
    });
    if (!this.stream.closed) await new Promise<void>((resolve) => this.stream.once('close', () => resolve()));
    if (!this.failure) {
      try {
        await rename(this.temporary, this.path);
        return;
      } catch (err) {
        this.failure = err as Error;
      }
    }
    await rm(this.temporary, { force: true }).catch(() => undefined);
    throw new FailuresFileError(`--failures ${this.path}: writing failed (${this.failure.message})`);
  }
}

function quoteFor(value: string, delimiter: string): string {
  return value.includes(delimiter) || /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The failures file could not be written to the end (a full disk): the import itself went on. */
export class FailuresFileError extends CliError {
  readonly exitCode = ExitCode.failure;
}

/**
 * Refuses a --failures path that is the input file or the journal, by any
 * path (CLI.md "--failures"): the same file after following links (device and
 * inode), or, for a journal not written yet, the same place. Called before
 * anything is sent.
 */
export async function refuseFailuresClash(failuresPath: string, input: { path: string; name: string; fromStdin: boolean }, journalPath: string | undefined): Promise<void> {
  const target = await stat(failuresPath).catch(() => undefined);
  if (!input.fromStdin) {
    const source = await stat(input.path).catch(() => undefined);
    if (sameFile(target, source)) {
      throw new UsageError(`--failures ${failuresPath} is the input file ${input.name}: writing the failures there would destroy the rows being imported; name another file`);
    }
  }
  if (journalPath) {
    const journal = await stat(journalPath).catch(() => undefined);
    if (sameFile(target, journal) || (await place(failuresPath)) === (await place(journalPath))) {
      throw new UsageError(`--failures ${failuresPath} is the journal of this import (${journalPath}); name another file`);
    }
  }
}

function sameFile(a: Stats | undefined, b: Stats | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/** Where a path's entry lives: its directory with links resolved, and its name. */
async function place(path: string): Promise<string> {
  const dir = await realpath(dirname(path)).catch(() => dirname(path));
  return join(dir, basename(path));
}
