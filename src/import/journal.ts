// The import journal: which batches the service acknowledged, so `--resume`
// sends only the rest (CLI.md "--journal / --resume").
//
// Format: JSON lines. The first line binds the journal to its input (size,
// mtime, SHA-256 of the head) and to every option that changes what is sent;
// each further line is one acknowledged batch with its outcome counts and the
// rows the service refused, so a resumed run can report, and write to
// --failures, the whole file including the earlier run.
//
// Durability: the first line is written to a temporary file, fsync'd and
// renamed into place (while the first batches are sent), so a journal either
// exists whole or not at all. Batch
// lines are appended and fdatasync'd as batches are acknowledged; appends that
// arrive while a sync is running are written together by the next one (group
// commit), so a million-row import pays a few hundred syncs rather than one per
// batch. A line torn by a crash is incomplete JSON and is dropped on reading:
// its batch is sent again, which is harmless (an import of an existing address
// updates it, service-spec.md "Import subscribers").
//
// JournalSession is what the importer uses: it opens the journal (refusing one
// that is not a journal, or belongs to another import, or exists without
// --resume), says which batches an earlier run had acknowledged, records the
// new ones, and at the end keeps the journal or removes it.
import { open, readFile, rename, rm, truncate, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from '../core/errors.js';
import type { ImportInput, InputIdentity } from './input.js';

const JOURNAL_KIND = 'email-import-journal';
const JOURNAL_VERSION = 1;

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

interface LoadedJournal {
  header: JournalHeader;
  batches: Map<number, BatchRecord>;
  /** Bytes of complete lines; anything after is a torn write. */
  validLength: number;
}

export class JournalError extends Error {}

/** Reads a journal; undefined when there is none. Throws JournalError when the file is not a journal. */
export async function loadJournal(path: string): Promise<LoadedJournal | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new JournalError(`cannot read the journal ${path}: ${(err as Error).message}`);
  }
  const firstBreak = text.indexOf('\n');
  let header: JournalHeader;
  try {
    header = JSON.parse(firstBreak < 0 ? text : text.slice(0, firstBreak)) as JournalHeader;
  } catch {
    throw new JournalError(`${path} is not an import journal`);
  }
  if (header?.kind !== JOURNAL_KIND) throw new JournalError(`${path} is not an import journal`);
  if (header.version !== JOURNAL_VERSION) throw new JournalError(`${path} was written by another version of this tool (journal version ${header.version})`);
  const batches = new Map<number, BatchRecord>();
  if (firstBreak < 0) throw new JournalError(`${path} is incomplete (no line after its header)`);
  let validLength = Buffer.byteLength(text.slice(0, firstBreak + 1));
  let at = firstBreak + 1;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    if (end < 0) break; // torn last line
    try {
      const record = JSON.parse(text.slice(at, end)) as BatchRecord;
      if (typeof record.batch !== 'number' || typeof record.rows !== 'number') break;
      batches.set(record.batch, record);
    } catch {
      break;
    }
    validLength += Buffer.byteLength(text.slice(at, end + 1));
    at = end + 1;
  }
  return { header, batches, validLength };
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
  private handle: FileHandle | undefined;
  /** Resolves once the journal is in place and open for appending. */
  private ready: Promise<void> = Promise.resolve();

  private constructor(readonly path: string) {}

  /**
   * Creates a new journal atomically (temporary file, fsync, rename). The
   * temporary file is written before this returns, so an unwritable place is
   * refused before anything is sent; the sync and rename finish in the
   * background while the first batches are on their way (a sync can wait
   * behind the writeback of other files' data), and batch lines wait for them.
   */
  static async create(path: string, header: JournalHeader): Promise<JournalWriter> {
    const temporary = `${path}.${process.pid}.tmp`;
    const file = await open(temporary, 'w', 0o600);
    try {
      await file.writeFile(`${JSON.stringify(header)}\n`);
    } catch (err) {
      await file.close().catch(() => undefined);
      await rm(temporary, { force: true });
      throw err;
    }
    const writer = new JournalWriter(path);
    writer.ready = (async () => {
      try {
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
      await syncDirectory(dirname(path));
      writer.handle = await open(path, 'a');
    })().catch((err: Error) => {
      writer.failure ??= new JournalError(`cannot write the journal ${path}: ${err.message}`);
    });
    return writer;
  }

  /** Continues a loaded journal, cutting a torn last line first. */
  static async reopen(path: string, validLength: number): Promise<JournalWriter> {
    await truncate(path, validLength);
    const writer = new JournalWriter(path);
    writer.handle = await open(path, 'a');
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
      await this.handle?.close().catch(() => undefined);
      this.handle = undefined;
    }
  }

  /** Deletes the journal of a finished import. */
  async remove(): Promise<void> {
    await this.close().catch(() => undefined);
    await rm(this.path, { force: true });
    await rm(`${this.path}.${process.pid}.tmp`, { force: true });
  }

  private async drain(): Promise<void> {
    try {
      await this.ready;
      while (this.queue.length && !this.failure && this.handle) {
        const text = this.queue.join('');
        this.queue = [];
        await this.handle.write(text);
        await this.handle.datasync();
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

/** Makes a rename durable: the directory entry itself is synced (Linux and macOS; ignored where unsupported). */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open a directory; its rename is already durable enough.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * The journal of one import run (CLI.md "--journal / --resume"). A journal
 * that records no acknowledged batch has nothing to resume: it never blocks a
 * new run, which replaces it. At the end the journal is kept only when it is
 * worth resuming: some batch was acknowledged (now or in an earlier run) and
 * not every batch of the file was.
 */
export class JournalSession {
  private acknowledgedNow = 0;

  private constructor(
    private readonly writer: JournalWriter,
    /** The batches an earlier run had acknowledged (--resume). */
    private readonly earlier: Map<number, BatchRecord>,
  ) {}

  /** Opens or creates the journal at `path`; every refusal is a UsageError sent before anything is sent. */
  static async open(path: string, o: { resume: boolean; input: ImportInput; options: JournalOptions; onNotice?: (message: string) => void }): Promise<JournalSession> {
    let loaded: LoadedJournal | undefined;
    try {
      loaded = await loadJournal(path);
    } catch (err) {
      if (err instanceof JournalError) throw hinted(new UsageError(err.message), 'Delete it, or choose another file with --journal.');
      throw err;
    }
    const nothingAcknowledged = loaded !== undefined && loaded.batches.size === 0;
    if (loaded && !nothingAcknowledged) {
      if (!o.resume) {
        throw hinted(
          new UsageError(`an unfinished import's journal exists: ${path} (${loaded.batches.size} batches acknowledged)`),
          'Run again with --resume to continue it, or delete the journal to start over. Nothing was sent.',
        );
      }
      const differences = journalMismatch(loaded.header, o.input.identity, o.options);
      if (differences.length) {
        throw hinted(
          new UsageError(`the journal ${path} does not match this import: ${differences.join('; ')}`),
          'Resume with the same file and options, or delete the journal to start over. Nothing was sent.',
        );
      }
      return new JournalSession(await JournalWriter.reopen(path, loaded.validLength), loaded.batches);
    }
    if (o.resume) {
      o.onNotice?.(nothingAcknowledged ? `the journal ${path} records no acknowledged batch: starting from the beginning` : `no journal at ${path}: starting from the beginning`);
    }
    try {
      const header: JournalHeader = {
        kind: JOURNAL_KIND,
        version: JOURNAL_VERSION,
        input: { name: o.input.name, ...o.input.identity },
        options: o.options,
        createdAt: new Date().toISOString(),
      };
      return new JournalSession(await JournalWriter.create(path, header), new Map());
    } catch (err) {
      throw hinted(
        new UsageError(`cannot create the journal ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`),
        'Choose a writable place with --journal <file>. Nothing was sent.',
      );
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

  /** Closes the journal, or removes it when it is not worth keeping (keeps()). */
  end(allAcknowledged: boolean): Promise<void> {
    return this.keeps(allAcknowledged) ? this.writer.close() : this.writer.remove();
  }
}

function hinted<E extends UsageError>(error: E, hint: string): E {
  error.hint = hint;
  return error;
}
