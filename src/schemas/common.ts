// Building blocks for response schemas. They validate without changing
// values: JSON output must be the service's data unchanged (CLI.md "--json"),
// so leniency means accepting more shapes, never rewriting them.
//
// zod/mini, not the classic `zod` entry: the same validation, but bundled it
// is 23 KB instead of 432 KB, which every read command loads. Each schema
// file imports the namespace itself: re-exported from here as a value
// (`export { z }`), it made esbuild keep every export of zod/mini, its 264 KB
// of locales included (measured: a read loaded a 432 KB chunk, ~20 ms).
import * as z from 'zod/mini';

// Each block carries its own words for a value that does not fit: zod/mini
// has no message catalogue, and core/response-issues.ts turns these into
// `Results[3].Date: expected a date-time, got 17` (CLI.md "lenient reading").

/** An integer that the service may send as a number or as a numeric string. */
export const lenientInt = z.union(
  [z.number({ error: 'expected an integer' }).check(z.int('expected an integer')), z.string({ error: 'expected an integer' }).check(z.regex(/^-?\d+$/, 'expected an integer'))],
  { error: 'expected an integer' },
);

/** Dates come as "2010-10-11 08:29:00" or ISO 8601 with an offset. */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export const dateTime = z.string({ error: 'expected a date-time' }).check(z.regex(DATE_TIME, 'expected a date-time'));

/** Identifiers are UUIDs in the spec (32 hex digits from the real service), but we do not refuse a response over an id's shape. */
export const id = z.string({ error: 'expected an id' }).check(z.minLength(1, 'expected an id'));

/**
 * A field the spec names but the client does not check: it is declared so
 * that --fields knows its name (src/output/shape.ts), and passes whatever it holds.
 */
export const field = z.optional(z.unknown());

/** Create calls answer a bare JSON string (service-spec.md "Endpoints"). */
export const bareString = z.string();

export function toInt(value: number | string | undefined | null): number {
  if (value === undefined || value === null) return 0;
  return typeof value === 'number' ? value : Number(value);
}
