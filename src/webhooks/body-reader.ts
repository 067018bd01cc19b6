// Reading a delivery's body as it comes, under a budget of bytes that all
// senders share (CLI.md `webhooks listen`): a body that would cross the
// budget waits, unread (TCP holds the sender back), until room is made.
import type { IncomingMessage } from 'node:http';
import { Limiter, type Release } from '../core/limiter.js';

/** A body being read, as the budget knows it. */
interface Reader {
  /** It has become the oldest body still being read: it goes on now, room or not. */
  promote(): void;
}

/**
 * The bytes of bodies read and not yet parsed, all senders together, in
 * core's Limiter. A reader that would cross the budget pauses (its socket is
 * no longer read) and waits in the limiter's line; the oldest reader still
 * reading may always go on (force), so paused readers can never all wait on
 * each other. Memory is thus at most the budget and one body beyond it.
 * A paused body's request deadline keeps running: room comes back as the
 * bodies ahead of it end, each within its own deadline.
 */
export class ReadingBudget {
  private readonly bytes: Limiter;
  /** Readers still reading, in arrival order. */
  private readonly readers = new Set<Reader>();
  constructor(max: number) {
    this.bytes = new Limiter(max);
  }
  /** Bodies being read. */
  get reading(): number {
    return this.readers.size;
  }
  /** Bytes read and not yet given back. */
  get buffered(): number {
    return this.bytes.used;
  }
  get peak(): number {
    return this.bytes.peak;
  }
  join(reader: Reader): void {
    this.readers.add(reader);
  }
  /** The reader is done reading (its body whole, refused or gone); the next oldest goes on if it waits. */
  leave(reader: Reader): void {
    const wasOldest = this.isOldest(reader);
    this.readers.delete(reader);
    if (wasOldest) this.readers.values().next().value?.promote();
  }
  /** `bytes` for `reader` now, or undefined when it must wait for them (wait()). */
  take(reader: Reader, bytes: number): Release | undefined {
    return this.isOldest(reader) ? this.bytes.force(bytes) : this.bytes.tryAcquire(bytes);
  }
  /** `bytes` once there is room, in arrival order; rejects when `signal` aborts first. */
  wait(bytes: number, signal: AbortSignal): Promise<Release> {
    return this.bytes.acquire(bytes, signal);
  }
  /** What a promoted reader had in hand when it paused: counted whatever the room. */
  force(bytes: number): Release {
    return this.bytes.force(bytes);
  }
  private isOldest(reader: Reader): boolean {
    return this.readers.values().next().value === reader;
  }
}

/** A whole body, and the release that gives its bytes back to the budget once the caller is done with it. */
export interface ReadBody {
  body: Buffer;
  release: Release;
}

export type ReadResult = ReadBody | 'too large' | 'idle';

/**
 * The whole body; 'too large' as soon as it crosses `maxBytes`, 'idle' when
 * no byte came for `idleMs` (reading stops there and what was read is given
 * back). Bytes read are counted in `budget`, and reading pauses while the
 * budget has no room (the idle clock stopped meanwhile: the wait is ours).
 * Rejects when the request closes before its end.
 */
export function readBody(req: IncomingMessage, maxBytes: number, idleMs: number, budget: ReadingBudget): Promise<ReadResult> {
  return new Promise((resolve, rejectRead) => {
    const chunks: Buffer[] = [];
    /** The budget's bytes this body holds, a release per chunk. */
    const held: Release[] = [];
    let size = 0;
    /** Chunks that came while paused, the first one being what the budget is asked for. */
    let pending: Buffer[] = [];
    /** Set while waiting in the budget's line; aborting it leaves the line. */
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
    /** Goes on with the chunks held back; the first is already counted when `firstCounted`. */
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
    /** Counts a chunk already taken from the budget; false when the body is now too large. */
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
      // Paused already: this one waits behind the others.
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
