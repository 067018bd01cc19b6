// Batching as the service does it (service-spec.md "Events" rule 3): events
// grouped into requests of at most 1000, in order; 6,500 events leave as six
// requests of 1000 and one of 500.
import { WEBHOOK_BATCH_LIMIT } from './events.js';

export function* batchesOf<T>(items: Iterable<T>, size = WEBHOOK_BATCH_LIMIT): Generator<T[]> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`batch size must be a positive integer, got ${size}`);
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** How many requests `count` events take. */
export function requestCount(count: number, size = WEBHOOK_BATCH_LIMIT): number {
  return Math.ceil(count / size);
}
