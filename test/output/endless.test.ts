// Records without end: each record written as it comes, what has come shown
// (flushed) before the next is waited for, and the source told when the
// output fails.
import { describe, expect, it } from 'vitest';
import { writeEndless } from '../../src/output/endless.js';
import type { RecordStream } from '../../src/output/format.js';
import { eventQueue } from '../../src/webhooks/event-queue.js';

function recording(fail?: (record: unknown) => boolean): RecordStream & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    write: async (record) => {
      if (fail?.(record)) throw new Error('the reader went away');
      log.push(`write ${String(record)}`);
    },
    flush: async () => void log.push('flush'),
    end: async () => void log.push('end'),
  };
}

describe('writeEndless', () => {
  it('flushes when the source has nothing ready, not between records that came together', async () => {
    const q = eventQueue<string>();
    const out = recording();
    q.push(['a1', 'a2', 'a3'], () => undefined);
    const writing = writeEndless(q.records, out);
    await new Promise((r) => setTimeout(r, 20));
    expect(out.log).toEqual(['write a1', 'write a2', 'write a3', 'flush']);
    q.push(['b1'], () => undefined);
    await new Promise((r) => setTimeout(r, 20));
    q.end();
    await writing;
    expect(out.log).toEqual(['write a1', 'write a2', 'write a3', 'flush', 'write b1', 'flush', 'end']);
  });

  it('a write that fails tells the source, which lets go of what it holds', async () => {
    const q = eventQueue<string>();
    const taken: string[] = [];
    q.push(['ok'], () => taken.push('first'));
    q.push(['bad'], () => taken.push('second'));
    q.push(['never'], () => taken.push('third'));
    await expect(writeEndless(q.records, recording((r) => r === 'bad'))).rejects.toThrow(/went away/);
    expect(taken).toEqual(['first', 'second', 'third']);
  });
});
