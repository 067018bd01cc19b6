// Writes an import's journal like every file beside the user's data
// (core/private-file.ts): whole or not at all, never through a link; batch
// lines are appended through the same descriptor and synced in groups (those
// that arrive during a sync go together in the next), not one sync a batch.
import { rm } from 'node:fs/promises';
import { PrivateFile } from '../core/private-file.js';
import { JournalError, type BatchRecord, type JournalHeader } from './journal-format.js';
import { MacChain } from './journal-mac.js';

export class JournalWriter {
  private queue: string[] = [];
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;
  private file: PrivateFile | undefined;
  /** Resolves once the journal is in place and open for appending. */
  private ready: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    private readonly chain: MacChain,
  ) {}

  /**
   * A new journal, or on --resume the checked content of the earlier one. The
   * temporary file is written before this returns, so an unwritable place is
   * refused before anything is sent; its sync and rename finish while the
   * first batches are on their way (a sync can wait behind other files' writeback).
   */
  static async create(path: string, header: JournalHeader, macKey: Buffer, earlier: Iterable<BatchRecord> = []): Promise<JournalWriter> {
    const chain = new MacChain(macKey);
    const file = await PrivateFile.create(path);
    try {
      let text = sealed(chain, header);
      for (const record of earlier) text += sealed(chain, record);
      await file.write(text);
    } catch (err) {
      await file.discard();
      throw err;
    }
    const writer = new JournalWriter(path, chain);
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
    this.queue.push(sealed(this.chain, batch));
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

  /** A link put at its path since is removed itself, never followed. */
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


function sealed(chain: MacChain, value: JournalHeader | BatchRecord): string {
  return `${JSON.stringify({ ...value, mac: chain.next(value) })}\n`;
}
