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
import { createWriteStream, type WriteStream } from 'node:fs';
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
    private readonly stream: WriteStream,
    private readonly width: number,
    delimiter: string,
  ) {
    this.separator = delimiter;
    // Formula-safe cells (CLI.md "untrusted text"), quoted when they hold the delimiter.
    this.cell = delimiter === ',' ? csvCell : (value) => quoteFor(spreadsheetSafe(value), delimiter);
    stream.on('error', (err) => (this.failure ??= err));
  }

  /** Creates the file and writes its header; an unwritable path is refused before anything is sent. */
  static async open(path: string, header: string[], delimiter: string, bom: boolean): Promise<FailuresWriter> {
    const stream = createWriteStream(path);
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', (err) => reject(new UsageError(`--failures ${path}: cannot write it (${(err as NodeJS.ErrnoException).code ?? err.message})`)));
    });
    const writer = new FailuresWriter(path, stream, header.length, delimiter);
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

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.stream.end(resolve));
    if (this.failure) throw new FailuresFileError(`--failures ${this.path}: writing failed (${this.failure.message})`);
  }
}

function quoteFor(value: string, delimiter: string): string {
  return value.includes(delimiter) || /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The failures file could not be written to the end (a full disk): the import itself went on. */
export class FailuresFileError extends CliError {
  readonly exitCode = ExitCode.failure;
}
