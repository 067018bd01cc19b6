// Building blocks for response schemas. They validate without changing values: JSON output is
// the service's data unchanged (CLI.md "--json"). zod/mini, imported by each schema file itself,
// keeps the bundle small (bench/README.md "Figures behind bounds in src/").
import * as z from 'zod/mini';

// Each block carries its own words: zod/mini has no message catalogue (CLI.md "lenient reading").

/** The service may send a number or a numeric string. */
export const lenientInt = z.union(
  [z.number({ error: 'expected an integer' }).check(z.int('expected an integer')), z.string({ error: 'expected an integer' }).check(z.regex(/^-?\d+$/, 'expected an integer'))],
  { error: 'expected an integer' },
);

/** Dates come as "2010-10-11 08:29:00" or ISO 8601 with an offset. */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export const dateTime = z.string({ error: 'expected a date-time' }).check(z.regex(DATE_TIME, 'expected a date-time'));

/** We do not refuse a response over an id's shape. */
export const id = z.string({ error: 'expected an id' }).check(z.minLength(1, 'expected an id'));

/** Not checked, but declared so that --fields knows its name. */
export const field = z.optional(z.unknown());

export const bareString = z.string();

export function toInt(value: number | string | undefined | null): number {
  if (value === undefined || value === null) return 0;
  return typeof value === 'number' ? value : Number(value);
}
