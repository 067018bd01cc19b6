// A create call's answer as a result: a bare id for people and `$(…)`, the
// body unchanged for machine formats. An unexpected answer is printed as
// received with a warning: the thing was created, the request is never repeated.
import type { Context } from '../context.js';
import { asJson, type Result } from './define.js';

/** `id` is undefined when the answer holds none; `problem` says why the answer did not fit. */
export function createdResult(ctx: Context, data: unknown, id: string | undefined, what: string, problem?: string): Result {
  if (problem !== undefined || id === undefined || id === '') {
    const reason = problem !== undefined ? `the answer is not what was expected (${problem})` : "the service's answer holds no identifier";
    ctx.log.warn(`${what} created, but ${reason}${data === undefined ? '' : '; it is printed as received'}. The request is not repeated.`);
    // The body as sent: text as a line, anything else as JSON (a table would reshape it).
    return { data, people: typeof data === 'string' ? undefined : asJson };
  }
  return { data, people: (_, out) => out.line(id) };
}
