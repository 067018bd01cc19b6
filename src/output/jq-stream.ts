// Streamed records through --jq: per slice when the expression runs per record,
// else gathered (up to a bound) and run at the end.
import type { RecordStream } from './format.js';
import type { Shape } from './shape.js';

const JQ_STREAM_CHUNK = 500;

export function jqStream(jq: NonNullable<Shape['jq']>, write: (text: string) => Promise<void>, signal: AbortSignal | undefined): RecordStream {
  if (!jq.perRecord) {
    const gathering = jq.gather();
    return {
      write: async (record) => gathering.add(record),
      end: () => gathering.run(write, signal),
    };
  }
  let buffer: unknown[] = [];
  let scheduled = false;
  // Chunks run one after another, in order: the end waits for the one still running.
  let running: Promise<void> = Promise.resolve();
  // A run that failed (a jq error, a closed stdout) fails the next write and the end.
  let failed: { error: unknown } | undefined;
  const flush = (): Promise<void> => {
    scheduled = false;
    const chunk = buffer;
    buffer = [];
    if (chunk.length) {
      running = running
        .then(() => jq.run(chunk, write, signal))
        .catch((error: unknown) => {
          failed ??= { error };
        });
    }
    return running;
  };
  const settled = async () => {
    await flush();
    if (failed) throw failed.error;
  };
  return {
    write: async (record) => {
      if (failed) throw failed.error;
      buffer.push(record);
      if (buffer.length >= JQ_STREAM_CHUNK) return settled();
      // What a page gave is written once its records are in: after the writes queued in this turn.
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => void flush());
      }
    },
    end: settled,
  };
}
