// The import journal: which batches the service acknowledged, so `--resume`
// sends only the rest (CLI.md "--journal / --resume").
//
// Format: JSON lines. The first line binds the journal to its import: the
// input (size, mtime, SHA-256 of the head), every option that changes what is
// sent, and the service (its base URL, normalised, and an HMAC of the key
// under a random salt: never the key). Each further line is one acknowledged
// batch with its outcome counts and the rows the service refused, so a
// resumed run can report, and write to --failures, the whole file including
// the earlier run. `--resume` with another file, other options, another base
// URL or another key is refused, naming what differs.
//
// The journal is written like every file beside the user's data
// (core/private-file.ts): never through a link, 0600, under an unpredictable
// temporary name then renamed into place (while the first batches are sent),
// so a journal either exists whole or not at all. A resumed run writes the
// checked content of the earlier journal to a new file the same way; batch
// lines are appended through that descriptor, never by opening the path
// again, and fdatasync'd as batches are acknowledged; appends that arrive
// while a sync is running are written together by the next one (group
// commit), so a million-row import pays a few hundred syncs rather than one
// per batch. A last line torn by a crash is dropped on reading: its batch is
// sent again, which is harmless (an import of an existing address updates
// it, service-spec.md "Import subscribers").
//
// A journal is checked when read (zod, then the counts): anything damaged, or
// that the file could not have produced, is refused before anything is sent,
// and never counted as rows imported. One import holds a journal at a time
// (journal-lock.ts).
//
// JournalSession is what the importer uses: it takes the lock, opens the
// journal (refusing one that is not a journal, is damaged, belongs to another
// import, or exists without --resume), says which batches an earlier run had
// acknowledged, records the new ones, and at the end keeps the journal or
// removes it, and lets go of the lock.
import { rm } from 'node:fs/promises';
import * as z from 'zod/mini';
import { hinted, UsageError } from '../core/errors.js';
import { PrivateFile, readRegularFile, UnsafePathError } from '../core/private-file.js';
import { describeIssue } from '../core/response-issues.js';
import type { ImportInput, InputIdentity } from './input.js';
import { JournalLock } from './journal-lock.js';
import { journalService, serviceMismatch, type JournalService, type ServiceClient } from './journal-service.js';

const JOURNAL_KIND = 'email-import-journal';
/** 2: the header names the service (base URL and a digest of the key). */
const JOURNAL_VERSION = 2;

/** Everything that changes the requests of an import: a resumed run must use the same. */
export interface JournalOptions {
  list: string;
  batchSize: number;
  consent: string | null;
  resubscribe: boolean;
  queueAutoresponders: boolean;
  restartAutoresponders: boolean;
  delimiter: string;
  encoding: string;
  multiSeparator: string | null;
  /** What each column becomes, in order: EmailAddress, Name, ConsentToTrack, -, or field:<key>. */
  mapping: string[];
}

export interface JournalHeader {
  kind: typeof JOURNAL_KIND;
  version: number;
  input: { name: string } & InputIdentity;
  options: JournalOptions;
  service: JournalService;
  createdAt: string;
}

/** One acknowledged batch. */
export interface BatchRecord {
  batch: number;
  rows: number;
  new: number;
  existing: number;
  failed: number;
  retries: number;
  /** The service's own totals for the batch: [TotalUniqueEmailsSubmitted, TotalExistingSubscribers, TotalNewSubscribers]. */
  service: [number, number, number];
  /** Rows the service refused: [position in the batch, Code, Message]. */
  failures: [number, string, string][];
}

// What a journal read back must be (zod/mini: the words of each check are ours, core/response-issues.ts).
const count = z.int('expected a whole number').check(z.gte(0, 'expected a whole number, 0 or more'));
const headerSchema = z.object({
  kind: z.literal(JOURNAL_KIND),
  version: z.literal(JOURNAL_VERSION),
  // Loose: what identifies an input is input.ts's to say; journalMismatch() compares what is there.
  input: z.looseObject({ name: z.string(), size: count, mtimeMs: z.optional(z.number()), sha256: z.string(), hashed: z.string() }),
  options: z.object({
    list: z.string(),
    batchSize: count.check(z.gte(1, 'expected 1 or more')),
    consent: z.nullable(z.string()),
    resubscribe: z.boolean(),
    queueAutoresponders: z.boolean(),
    restartAutoresponders: z.boolean(),
    delimiter: z.string(),
    encoding: z.string(),
    multiSeparator: z.nullable(z.string()),
    mapping: z.array(z.string()),
  }),
  service: z.object({ baseUrl: z.string(), keySalt: z.string().check(z.minLength(16, 'expected a salt')), keyDigest: z.string() }),
  createdAt: z.string(),
});
const recordSchema = z.object({
  batch: count,
  rows: count.check(z.gte(1, 'expected 1 or more')),
  new: count,
  existing: count,
  failed: count,
  retries: count,
  service: z.tuple([count, count, count]),
  failures: z.array(z.tuple([count, z.string(), z.string()])),
});

interface LoadedJournal {
  header: JournalHeader;
  /** The acknowledged batches by index, each checked on its own (checkRecord()). */
  batches: Map<number, BatchRecord>;
}

/** `ours`: the file is a journal this tool wrote (damaged, or of another version), which --restart may discard. */
export class JournalError extends Error {
  constructor(
    message: string,
    readonly ours = true,
  ) {
    super(message);
  }
}

/**
 * Reads a journal, without following a link at its path: undefined when
 * there is none, 'empty' when it records no acknowledged batch (nothing to
 * resume, whatever its header says: CLI.md lets such a journal never block a
 * new run). Only the last line may be torn (a crash in mid-append): it is
 * dropped, and its batch sent again. Anything else that is not what this
 * version writes throws JournalError, naming the line and what is wrong.
 */
export async function loadJournal(path: string): Promise<LoadedJournal | 'empty' | undefined> {
  let data: Buffer | undefined;
  try {
    data = await readRegularFile(path);
  } catch (err) {
    if (err instanceof UnsafePathError) throw new JournalError(`the journal ${err.path} ${err.reason}: it is not read or written through`, false);
    throw new JournalError(`cannot read the journal ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, false);
  }
  if (data === undefined) return undefined;
  const text = data.toString('utf8');
  const lines = text.split('\n');
  lines.pop(); // after the last line break: empty, or a line torn by a crash
  let first: { kind?: unknown; version?: unknown } | undefined;
  try {
    first = JSON.parse(lines[0] ?? text) as typeof first;
  } catch {
    // below
  }
  if (first?.kind !== JOURNAL_KIND) throw new JournalError(`${path} is not an import journal`, false);
  if (lines.length <= 1) return 'empty';
  if (first.version !== JOURNAL_VERSION) throw new JournalError(`${path} was written by another version of this tool (journal version ${String(first.version)})`);
  const damaged = (line: number, what: string) => new JournalError(`the journal ${path} is damaged: line ${line}${what}`);
  const header = headerSchema.safeParse(first);
  if (!header.success) throw damaged(1, `: ${describeIssue(header.error.issues[0], first)}`);
  const batches = new Map<number, BatchRecord>();
  for (let i = 1; i < lines.length; i++) {
    let value: unknown;
    try {
      value = JSON.parse(lines[i]!);
    } catch {
      throw damaged(i + 1, ' is not JSON');
    }
    const parsed = recordSchema.safeParse(value);
    if (!parsed.success) throw damaged(i + 1, `: ${describeIssue(parsed.error.issues[0], value)}`);
    const record = parsed.data as BatchRecord;
    const problem = checkRecord(record, header.data.options.batchSize) ?? (batches.has(record.batch) ? `batch ${record.batch + 1} is recorded twice` : undefined);
    if (problem) throw damaged(i + 1, `: ${problem}`);
    batches.set(record.batch, record);
  }
  return { header: header.data as JournalHeader, batches };
}

/** What is wrong with one batch record on its own, if anything: its counts must add up to its rows, its failures to its failed rows. */
function checkRecord(r: BatchRecord, batchSize: number): string | undefined {
  const name = `batch ${r.batch + 1}`;
  if (r.rows > batchSize) return `${name} has ${r.rows} rows; --batch-size is ${batchSize}`;
  if (r.new + r.existing + r.failed !== r.rows) return `${name}: new + existing + failed is ${r.new + r.existing + r.failed}, not its ${r.rows} rows`;
  if (r.failures.length !== r.failed) return `${name}: ${r.failed} rows failed, but ${r.failures.length} failures are listed`;
  const seen = new Set<number>();
  for (const [position] of r.failures) {
    if (position >= r.rows) return `${name}: failure position ${position} is not a row of the batch (it has ${r.rows})`;
    if (seen.has(position)) return `${name}: failure position ${position} is listed twice`;
    seen.add(position);
  }
  return undefined;
}

/**
 * What makes the batches of a journal impossible for this file, if anything:
 * batches come from the file in order, every one full but the last, so there
 * are at most ceil(rows / batch size) of them (the structure check counted the
 * rows before anything is sent), and only the last recorded can be short.
 */
export function journalDoesNotFit(batches: Map<number, BatchRecord>, batchSize: number, maxRows: number | undefined): string | undefined {
  let last = -1;
  let rows = 0;
  for (const record of batches.values()) {
    last = Math.max(last, record.batch);
    rows += record.rows;
  }
  if (maxRows !== undefined) {
    const most = Math.ceil(maxRows / batchSize);
    if (last >= most) return `it records batch ${last + 1}, but the file holds at most ${most} ${most === 1 ? 'batch' : 'batches'} of ${batchSize} rows`;
    if (rows > maxRows) return `its batches hold ${rows} rows, but the file holds at most ${maxRows}`;
  }
  for (const record of batches.values()) {
    if (record.rows < batchSize && record.batch !== last) return `batch ${record.batch + 1} has ${record.rows} rows, but only the last batch can have fewer than ${batchSize}`;
  }
  return undefined;
}

/** The differences between a journal and this run, in words; empty when they match. */
export function journalMismatch(header: JournalHeader, input: InputIdentity, options: JournalOptions): string[] {
  const differences: string[] = [];
  const was = header.input;
  if (was.size !== input.size) differences.push(`the input's size changed (${was.size} → ${input.size} bytes)`);
  if (was.mtimeMs !== input.mtimeMs && input.mtimeMs !== undefined) differences.push('the input file was modified since');
  if (was.hashed !== input.hashed || was.sha256 !== input.sha256) differences.push(`the input's content differs (SHA-256 of the ${input.hashed === 'all' ? 'data' : 'first 64 KiB'})`);
  const labels: Record<keyof JournalOptions, string> = {
    list: '--list',
    batchSize: '--batch-size',
    consent: '--consent',
    resubscribe: '--resubscribe',
    queueAutoresponders: '--queue-autoresponders',
    restartAutoresponders: '--restart-autoresponders',
    delimiter: '--delimiter',
    encoding: '--encoding',
    multiSeparator: '--multi-separator',
    mapping: 'the column mapping (--map)',
  };
  for (const key of Object.keys(labels) as (keyof JournalOptions)[]) {
    const before = JSON.stringify(header.options[key] ?? null);
    const now = JSON.stringify(options[key] ?? null);
    if (before !== now) differences.push(key === 'mapping' ? `${labels[key]} changed` : `${labels[key]} was ${before}, now ${now}`);
  }
  return differences;
}

export class JournalWriter {
  private queue: string[] = [];
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;
  /** Open for appending once the journal is in place. */
  private file: PrivateFile | undefined;
  /** Resolves once the journal is in place and open for appending. */
  private ready: Promise<void> = Promise.resolve();

  private constructor(readonly path: string) {}

  /**
   * Writes a journal atomically (core/private-file.ts: a temporary file,
   * fsync, rename): a new one (its header), or, on --resume, the checked
   * content of the earlier one, so nothing is appended through the path. The
   * temporary file is written before this returns, so an unwritable place is
   * refused before anything is sent; the sync and rename finish in the
   * background while the first batches are on their way (a sync can wait
   * behind the writeback of other files' data), and batch lines wait for
   * them. Batch lines are appended through the same descriptor.
   */
  static async create(path: string, header: JournalHeader, earlier: Iterable<BatchRecord> = []): Promise<JournalWriter> {
    const file = await PrivateFile.create(path);
    try {
      let text = `${JSON.stringify(header)}\n`;
      for (const record of earlier) text += `${JSON.stringify(record)}\n`;
      await file.write(text);
    } catch (err) {
      await file.discard();
      throw err;
    }
    const writer = new JournalWriter(path);
    writer.ready = file.commit().then(
      () => {
        writer.file = file;
      },
      async (err: Error) => {
        await file.discard();
        writer.failure ??= new JournalError(`cannot write the journal ${path}: ${err.message}`);
      },
    );
    return writer;
  }

  /** The first write or sync error, after which nothing more is written. */
  get error(): Error | undefined {
    return this.failure;
  }

  /** Queues an acknowledged batch; it is on disk once a later flush() resolves. */
  record(batch: BatchRecord): void {
    if (this.failure) return;
    this.queue.push(`${JSON.stringify(batch)}\n`);
    this.flushing ??= this.drain();
  }

  /** Waits until every recorded batch is synced; throws the write error, if any. */
  async flush(): Promise<void> {
    await this.ready;
    while (this.flushing) await this.flushing;
    if (this.failure) throw this.failure;
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.file?.close().catch(() => undefined);
    }
  }

  /** Deletes the journal of a finished import (a link put at its path since is removed itself, never followed). */
  async remove(): Promise<void> {
    await this.close().catch(() => undefined);
    if (this.file) await rm(this.path, { force: true });
  }

  private async drain(): Promise<void> {
    try {
      await this.ready;
      while (this.queue.length && !this.failure && this.file) {
        const text = this.queue.join('');
        this.queue = [];
        await this.file.write(text);
        await this.file.handle.datasync();
      }
    } catch (err) {
      this.failure = new JournalError(`cannot write the journal ${this.path}: ${(err as Error).message}`);
    } finally {
      this.flushing = undefined;
      // A record() that came in after the loop's last check starts the next round.
      if (this.queue.length && !this.failure) this.flushing = this.drain();
    }
  }
}

/**
 * The journal of one import run (CLI.md "--journal / --resume"). It is held
 * under a lock from before it is read until the run ends (journal-lock.ts).
 * A journal that records no acknowledged batch has nothing to resume: it
 * never blocks a new run, which replaces it. At the end the journal is kept
 * only when it is worth resuming: some batch was acknowledged (now or in an
 * earlier run) and not every batch of the file was.
 */
export class JournalSession {
  private acknowledgedNow = 0;

  private constructor(
    private readonly writer: JournalWriter,
    /** The batches an earlier run had acknowledged (--resume). */
    private readonly earlier: Map<number, BatchRecord>,
    private readonly lock: JournalLock,
  ) {}

  /**
   * Opens or creates the journal at `path`; every refusal is a UsageError
   * thrown before anything is sent, the journal left as it was.
   * `maxRows`: the data rows the structure check counted (an upper bound).
   */
  static async open(path: string, o: SessionOptions): Promise<JournalSession> {
    const lock = await JournalLock.acquire(path, o.onNotice);
    try {
      const loaded = o.restart ? await discardJournal(path, o.onNotice) : await checkedJournal(path, o);
      return new JournalSession(await journalWriter(path, o, loaded), loaded?.batches ?? new Map(), lock);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  get path(): string {
    return this.writer.path;
  }

  /** Whether an earlier run's batches are taken from the journal. */
  get resumed(): boolean {
    return this.earlier.size > 0;
  }

  /** The record of a batch an earlier run had acknowledged: it is not sent again. */
  earlierBatch(index: number): BatchRecord | undefined {
    return this.earlier.get(index);
  }

  /** Records a batch acknowledged now (on disk after a later group commit). */
  record(batch: BatchRecord): void {
    this.writer.record(batch);
    this.acknowledgedNow++;
  }

  /** The first write or sync error: every later batch would meet it. */
  get error(): Error | undefined {
    return this.writer.error;
  }

  /** Whether the journal stays at the end: some batch acknowledged (now or before), and not every batch of the file. */
  keeps(allAcknowledged: boolean): boolean {
    return !allAcknowledged && (this.acknowledgedNow > 0 || this.earlier.size > 0);
  }

  /** Closes the journal, or removes it when it is not worth keeping (keeps()); then lets go of the lock, whatever happened. */
  async end(allAcknowledged: boolean): Promise<void> {
    try {
      await (this.keeps(allAcknowledged) ? this.writer.close() : this.writer.remove());
    } finally {
      this.lock.release();
    }
  }
}

interface SessionOptions {
  resume: boolean;
  /** --restart: the journal of an earlier run is discarded, not resumed. */
  restart?: boolean;
  input: ImportInput;
  options: JournalOptions;
  client: ServiceClient;
  /** The data rows the structure check counted (an upper bound), when it did. */
  maxRows?: number;
  onNotice?: (message: string) => void;
}

/** Reads the journal and checks it against this import; undefined when there is nothing to resume. */
async function checkedJournal(path: string, o: SessionOptions): Promise<LoadedJournal | undefined> {
  let loaded: LoadedJournal | 'empty' | undefined;
  try {
    loaded = await loadJournal(path);
  } catch (err) {
    if (err instanceof JournalError) throw hinted(new UsageError(err.message), 'Delete it, or choose another file with --journal. Nothing was sent.');
    throw err;
  }
  if (loaded === undefined || loaded === 'empty') {
    if (o.resume) o.onNotice?.(loaded ? `the journal ${path} records no acknowledged batch: starting from the beginning` : `no journal at ${path}: starting from the beginning`);
    return undefined;
  }
  if (!o.resume) {
    throw hinted(
      new UsageError(`an unfinished import's journal exists: ${path} (${loaded.batches.size} batches acknowledged)`),
      'Run again with --resume to continue it, or with --restart to discard the journal and start over. Nothing was sent.',
    );
  }
  const otherService = await serviceMismatch(path, loaded.header.service, o.client);
  if (otherService) {
    throw hinted(
      new UsageError(otherService),
      'Resume against the service, and with the key, the import began with (--profile, EMAIL_BASE_URL, EMAIL_API_KEY), or run it with --restart to discard the journal and start over. Nothing was sent; the journal is kept.',
    );
  }
  const differences = journalMismatch(loaded.header, o.input.identity, o.options);
  if (differences.length) {
    throw hinted(
      new UsageError(`the journal ${path} does not match this import: ${differences.join('; ')}`),
      'Resume with the same file and options, or run it with --restart to discard the journal and start over. Nothing was sent.',
    );
  }
  const misfit = journalDoesNotFit(loaded.batches, o.options.batchSize, o.maxRows);
  if (misfit) throw hinted(new UsageError(`the journal ${path} does not fit this import: ${misfit}`), 'Run it with --restart to discard the journal and start over. Nothing was sent.');
  return loaded;
}

/**
 * --restart: removes the journal at `path` (under its lock, so never one
 * another import is writing) and says so. Only a journal this tool wrote is
 * removed, damaged or not: a path holding anything else is refused as it is
 * without --restart, and left alone.
 */
async function discardJournal(path: string, onNotice?: (message: string) => void): Promise<undefined> {
  let what: string;
  try {
    const loaded = await loadJournal(path);
    if (loaded === undefined) return undefined;
    what = loaded === 'empty' ? 'no batch acknowledged' : `${loaded.batches.size} batches acknowledged`;
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    if (!err.ours) throw hinted(new UsageError(err.message), 'Delete it, or choose another file with --journal. Nothing was sent.');
    what = 'damaged, or written by another version';
  }
  await rm(path, { force: true });
  onNotice?.(`--restart: discarded the journal ${path} (${what}); starting from the first row`);
  return undefined;
}

/** The journal written from here on: the checked content of the earlier one (--resume), or a new one. */
async function journalWriter(path: string, o: SessionOptions, loaded: LoadedJournal | undefined): Promise<JournalWriter> {
  try {
    if (loaded) return await JournalWriter.create(path, loaded.header, loaded.batches.values());
    const header: JournalHeader = {
      kind: JOURNAL_KIND,
      version: JOURNAL_VERSION,
      input: { name: o.input.name, ...o.input.identity },
      options: o.options,
      service: await journalService(o.client),
      createdAt: new Date().toISOString(),
    };
    return await JournalWriter.create(path, header);
  } catch (err) {
    if (err instanceof UnsafePathError) {
      throw hinted(new UsageError(`cannot create the journal ${path}: it ${err.reason}`), 'Delete it, or choose another file with --journal. Nothing was sent.');
    }
    throw hinted(
      new UsageError(`cannot create the journal ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`),
      'Choose a writable place with --journal <file>. Nothing was sent.',
    );
  }
}

