// A delivery's body read as it comes, under a byte budget all senders share (CLI.md `webhooks
// listen`): a body that would cross it waits unread, TCP holding the sender back.
import type { IncomingMessage } from 'node:http';
import { Limiter, type Release } from '../core/limiter.js';

interface Reader {
  /** Now the oldest body still being read: it goes on, room or not. */
  promote(): void;
}

/**
 * The oldest reader may always go on (force), so paused readers never all wait on each other:
 * memory stays at most the budget plus one body.
 */
export class ReadingBudget {
  private readonly bytes: Limiter;
  private readonly readers = new Set<Reader>();
  constructor(max: number) {
    this.bytes = new Limiter(max);
  }
  get reading(): number {
    return this.readers.size;
  }
  get buffered(): number {
    return this.bytes.used;
  }
  get peak(): number {
    return this.bytes.peak;
  }
  join(reader: Reader): void {
    this.readers.add(reader);
  }
  /** The next oldest goes on if it waits. */
  leave(reader: Reader): void {
    const wasOldest = this.isOldest(reader);
    this.readers.delete(reader);
    if (wasOldest) this.readers.values().next().value?.promote();
  }
  take(reader: Reader, bytes: number): Release | undefined {
    return this.isOldest(reader) ? this.bytes.force(bytes) : this.bytes.tryAcquire(bytes);
  }
  wait(bytes: number, signal: AbortSignal): Promise<Release> {
    return this.bytes.acquire(bytes, signal);
  }
  /** What a promoted reader had in hand when it paused. */
  force(bytes: number): Release {
    return this.bytes.force(bytes);
  }
  private isOldest(reader: Reader): boolean {
    return this.readers.values().next().value === reader;
  }
}

export interface ReadBody {
  body: Buffer;
  release: Release;
}

export type ReadResult = ReadBody | 'too large' | 'idle';

/**
 * The idle clock stops while waiting for the budget: that wait is ours, not the sender's.
 * Rejects when the request closes before its end.
 */
export function readBody(req: IncomingMessage, maxBytes: number, idleMs: number, budget: ReadingBudget): Promise<ReadResult> {
  return new Promise((resolve, rejectRead) => {
    const chunks: Buffer[] = [];
    const held: Release[] = [];
    let size = 0;
    /** Chunks that came while paused; the first is what the budget is asked for. */
    let pending: Buffer[] = [];
    let waiting: AbortController | undefined;
    let endedWhilePaused = false;
    let idle: NodeJS.Timeout | undefined;
    const giveBack = () => {
      for (const release of held.splice(0)) release();
    };
    const watch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => finish('idle'), idleMs);
    };
    const resume = (firstCounted: boolean) => {
      const resumed = pending;
      pending = [];
      for (const [i, chunk] of resumed.entries()) {
        if (i > 0 || !firstCounted) held.push(budget.force(chunk.length));
        if (!keep(chunk)) return;
      }
      if (endedWhilePaused) return onEnd();
      watch();
      req.resume();
    };
    const reader: Reader = {
      promote: () => {
        if (!waiting) return;
        waiting.abort();
        waiting = undefined;
        resume(false);
      },
    };
    const pause = (chunk: Buffer) => {
      pending.push(chunk);
      clearTimeout(idle);
      req.pause();
      const wait = new AbortController();
      waiting = wait;
      budget.wait(chunk.length, wait.signal).then(
        (room) => {
          // Stopped or promoted between the grant and now: the room is not ours to keep.
          if (waiting !== wait) return room();
          waiting = undefined;
          held.push(room);
          resume(true);
        },
        () => undefined, // left the line: stopped, or promoted
      );
    };
    const keep = (chunk: Buffer): boolean => {
      if (size + chunk.length > maxBytes) {
        finish('too large');
        return false;
      }
      size += chunk.length;
      chunks.push(chunk);
      return true;
    };
    const onData = (chunk: Buffer) => {
      if (pending.length) {
        pending.push(chunk);
        return;
      }
      const room = budget.take(reader, chunk.length);
      if (!room) return pause(chunk);
      held.push(room);
      if (keep(chunk)) watch();
    };
    const onEnd = () => {
      if (pending.length) {
        endedWhilePaused = true; // the chunks held back come first
        return;
      }
      stop();
      const mine = held.splice(0);
      resolve({ body: Buffer.concat(chunks, size), release: () => mine.forEach((release) => release()) });
    };
    const finish = (result: 'too large' | 'idle') => {
      stop();
      giveBack();
      chunks.length = 0;
      resolve(result);
    };
    const onFail = (error?: Error) => {
      stop();
      giveBack();
      rejectRead(error ?? new Error('aborted'));
    };
    const stop = () => {
      clearTimeout(idle);
      pending = [];
      waiting?.abort();
      waiting = undefined;
      budget.leave(reader);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFail);
      req.off('aborted', onFail);
      req.off('close', onClose);
    };
    const onClose = () => onFail(new Error('closed'));
    budget.join(reader);
    watch();
    req.on('data', onData);
    req.on('close', onClose);
    req.on('end', onEnd);
    req.on('error', onFail);
    req.on('aborted', onFail);
  });
}
