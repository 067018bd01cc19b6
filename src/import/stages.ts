// The reading stages as async iterables, each pulled by the next, so the
// reading waits while a batch waits for a slot or the failures file is busy:
// memory does not grow with the file. Per row the work is synchronous; a
// stage awaits only per chunk of records or per batch.
import type { Batch } from './batches.js';
import { Batcher } from './batches.js';
import { Dedupe } from './dedupe.js';
import type { FailuresFile } from './failures.js';
import type { EmptyNames } from './names.js';
import type { LeftOutValues } from './partial.js';
import { BLANK, type ImportEntry, type RowBuilder } from './rows.js';
import type { RowSource } from './source.js';
import type { Tally } from './tally.js';

interface RecordChunk {
  records: string[][];
  lines: number[];
}

interface RowChunk extends RecordChunk {
  entries: (ImportEntry | undefined)[];
  emails: string[];
  reasons: ([string, string] | undefined)[];
}

/** One await per chunk, not per record. */
const CHUNK_RECORDS = 256;

export interface ReadingState {
  done: boolean;
  stopped: boolean;
}

export async function* readRecords(rows: RowSource, failures: FailuresFile | undefined, stopped: () => boolean): AsyncGenerator<RecordChunk> {
  while (!stopped()) {
    await failures?.writable();
    const chunk: RecordChunk = { records: [], lines: [] };
    let record: string[] | null = null;
    while (chunk.records.length < CHUNK_RECORDS && (record = rows.read()) !== null) {
      chunk.records.push(record);
      chunk.lines.push(rows.line);
    }
    if (chunk.records.length) yield chunk;
    else if (!(await rows.more())) return;
  }
}

export async function* checkRows(chunks: AsyncIterable<RecordChunk>, builder: RowBuilder, tally: Tally, leftOut?: LeftOutValues): AsyncGenerator<RowChunk> {
  for await (const { records, lines } of chunks) {
    const rows: RowChunk = { records: [], lines: [], entries: [], emails: [], reasons: [] };
    for (let i = 0; i < records.length; i++) {
      const record = records[i]!;
      const entry = builder.build(record);
      if (entry === BLANK) {
        tally.blankLines++;
        continue;
      }
      tally.rowRead();
      rows.records.push(record);
      rows.lines.push(lines[i]!);
      rows.entries.push(entry);
      rows.emails.push(builder.email);
      rows.reasons.push(entry === undefined ? [builder.problemCode, builder.problemMessage] : undefined);
      if (builder.leftOut !== undefined && entry !== undefined) leftOut?.note(lines[i]!, builder.leftOut);
    }
    // Said before any row of the chunk can reach a batch.
    builder.dateTimes?.say();
    if (rows.records.length) yield rows;
  }
}

interface BatchStageOptions {
  tally: Tally;
  names: EmptyNames;
  batchSize: number;
  expectedRows: number;
  keepRows(index: number): boolean;
  stopped(): boolean;
  reading: ReadingState;
  rows: RowSource;
}

/** Dedupe and the batches are one stage: an address's fingerprint is valid only while dedupe hands the row on. */
export async function* formBatches(chunks: AsyncIterable<RowChunk>, o: BatchStageOptions): AsyncGenerator<Batch> {
  const { tally, names } = o;
  const formed: Batch[] = [];
  const batcher = new Batcher(o.batchSize, o.keepRows, (batch) => formed.push(batch));
  const dedupe = new Dedupe(o.expectedRows, {
    rejected: (record, line, code, message) => tally.rejected(record, line, code, message),
    duplicate: (record, line) => tally.duplicate(record, line),
    unique: (entry, record, line, fingerprints, at) => {
      // Said before the batch that carries the row can be sent.
      if (entry.Name === '') names.row(line);
      batcher.add(entry, record, line, fingerprints, at);
    },
  });
  for await (const { records, lines, entries, emails, reasons } of chunks) {
    for (let i = 0; i < records.length; i++) {
      if (o.stopped()) return;
      const entry = entries[i];
      const reason = reasons[i];
      if (entry === undefined) dedupe.reject(records[i]!, lines[i]!, reason![0], reason![1], emails[i]);
      else dedupe.add(entry, emails[i]!, records[i]!, lines[i]!);
      while (formed.length) yield formed.shift()!;
    }
  }
  if (!o.rows.ended) return;
  o.reading.done = true;
  o.reading.stopped = o.stopped();
  if (o.reading.stopped) return;
  dedupe.flush();
  batcher.flush();
  yield* formed;
}
