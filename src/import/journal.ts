// The journal of one import run: which batches the service acknowledged, so
// `--resume` sends only the rest (CLI.md "--journal / --resume"). A journal
// of another file, other options, service or key is refused, naming what
// differs, before anything is sent.
import { rm } from 'node:fs/promises';
import { hinted, UsageError } from '../core/errors.js';
import { UnsafePathError } from '../core/private-file.js';
import { writeTarget } from '../core/write-target.js';
import type { ImportInput } from './input.js';
import {
  JOURNAL_KIND,
  JOURNAL_VERSION,
  JournalError,
  journalDoesNotFit,
  journalMismatch,
  loadJournal,
  type BatchRecord,
  type JournalHeader,
  type JournalOptions,
  type LoadedJournal,
} from './journal-format.js';
import { JournalLock } from './journal-lock.js';
import { journalMacKey, verifyJournal } from './journal-mac.js';
import { journalService, serviceMismatch, type ServiceClient } from './journal-service.js';
import { JournalWriter } from './journal-writer.js';

export { JournalError, type BatchRecord, type JournalOptions } from './journal-format.js';

/** Held under its lock from before it is read until the run ends; a journal with no batch never blocks a new run. */
export class JournalSession {
  private acknowledgedNow = 0;

  private constructor(
    private readonly writer: JournalWriter,
    private readonly earlier: Map<number, BatchRecord>,
    private readonly lock: JournalLock,
  ) {}

  /** Every refusal is a UsageError before anything is sent, the journal left as it was. */
  static async open(path: string, o: SessionOptions): Promise<JournalSession> {
    await refuseNonFile(path);
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

  get resumed(): boolean {
    return this.earlier.size > 0;
  }

  /** A batch an earlier run had acknowledged: not sent again. */
  earlierBatch(index: number): BatchRecord | undefined {
    return this.earlier.get(index);
  }

  record(batch: BatchRecord): void {
    this.writer.record(batch);
    this.acknowledgedNow++;
  }

  /** The first write or sync error: every later batch would meet it. */
  get error(): Error | undefined {
    return this.writer.error;
  }

  /** Worth resuming: some batch acknowledged (now or before), and not every batch of the file. */
  keeps(allAcknowledged: boolean): boolean {
    return !allAcknowledged && (this.acknowledgedNow > 0 || this.earlier.size > 0);
  }

  /** Lets go of the lock whatever happened. */
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
  maxRows?: number;
  onNotice?: (message: string) => void;
}

/** Checked before its lock is made beside it (core/write-target.ts). */
async function refuseNonFile(path: string): Promise<void> {
  try {
    await writeTarget(path, { streams: false });
  } catch (err) {
    if (!(err instanceof UnsafePathError)) throw err;
    throw hinted(new UsageError(`the journal ${err.message}: it is never read, written through or replaced`), 'Delete it, or choose another file with --journal. Nothing was sent.');
  }
}

/** Reads the journal and checks it against this import; undefined when there is nothing to resume. */
async function checkedJournal(path: string, o: SessionOptions): Promise<LoadedJournal | undefined> {
  let loaded: LoadedJournal | 'empty' | undefined;
  try {
    loaded = await loadJournal(path);
  } catch (err) {
    if (err instanceof JournalError) {
      // A journal this tool wrote (damaged, or of an earlier version whose records cannot be verified) is --restart's to discard.
      const hint = err.ours ? 'Run it with --restart to discard the journal and start over, or choose another file with --journal.' : 'Delete it, or choose another file with --journal.';
      throw hinted(new UsageError(err.message), `${hint} Nothing was sent.`);
    }
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
  try {
    verifyJournal(path, loaded, await journalMacKey(o.client, loaded.header.service.keySalt));
  } catch (err) {
    if (err instanceof JournalError) throw hinted(new UsageError(err.message), 'Run it with --restart to discard the journal and start over. Nothing was sent; the journal is kept.');
    throw err;
  }
  return loaded;
}

/** --restart, under the lock: only a journal this tool wrote is removed, damaged or not; anything else is left alone. */
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

async function journalWriter(path: string, o: SessionOptions, loaded: LoadedJournal | undefined): Promise<JournalWriter> {
  try {
    const header: JournalHeader = loaded?.header ?? {
      kind: JOURNAL_KIND,
      version: JOURNAL_VERSION,
      input: { name: o.input.name, ...o.input.identity },
      options: o.options,
      service: await journalService(o.client),
      createdAt: new Date().toISOString(),
    };
    // The earlier lines written again in their order make the same MACs, and the chain goes on from them.
    return await JournalWriter.create(path, header, await journalMacKey(o.client, header.service.keySalt), loaded?.batches.values());
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

