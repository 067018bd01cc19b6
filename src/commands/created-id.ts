// What a create call answered, as a command's result: a bare identifier for
// people and `$(…)` in scripts, the service's body unchanged for -o
// json/ndjson/csv (the renderer decides which). An answer that is not what
// was expected is printed as received, with a warning: the thing was created,
// and the request is never repeated (CLI.md "lenient reading").
import type { Context } from '../context.js';
import type { Result } from './define.js';

/**
 * `id` is the identifier found in the answer (undefined when it holds none);
 * `problem` says why the answer did not fit what was expected, when it did not.
 */
export function createdResult(ctx: Context, data: unknown, id: string | undefined, what: string, problem?: string): Result {
  if (problem !== undefined || id === undefined || id === '') {
    const reason = problem !== undefined ? `the answer is not what was expected (${problem})` : "the service's answer holds no identifier";
    ctx.log.warn(`${what} created, but ${reason}${data === undefined ? '' : '; it is printed as received'}. The request is not repeated.`);
    // The body as the service sent it: text as a line, anything else as JSON (a table would reshape it).
    return { data, view: typeof data === 'string' ? undefined : { json: true } };
  }
  return { data, display: id };
}
