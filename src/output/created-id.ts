// Printing what a create call answered: a bare identifier for people and
// `$(…)` in scripts, the service's body unchanged for -o json/ndjson/csv.
// An answer that is not what was expected is printed as received, with a
// warning: the thing was created, and the request is never repeated (CLI.md
// "lenient reading").
import type { Context } from '../context.js';

/**
 * `id` is the identifier found in the answer (undefined when it holds none);
 * `problem` says why the answer did not fit what was expected, when it did not.
 */
export async function printCreated(ctx: Context, data: unknown, id: string | undefined, what: string, problem?: string): Promise<void> {
  if (problem !== undefined || id === undefined || id === '') {
    const reason = problem !== undefined ? `the answer is not what was expected (${problem})` : "the service's answer holds no identifier";
    ctx.log.warn(`${what} created, but ${reason}${data === undefined ? '' : '; it is printed as received'}. The request is not repeated.`);
    await printReceived(ctx, data);
    return;
  }
  if (ctx.out.format !== 'table') {
    await ctx.out.print(data);
    return;
  }
  await ctx.out.line(id);
}

/** The body as the service sent it: text as a line, anything else as JSON (a table would reshape it). */
async function printReceived(ctx: Context, data: unknown): Promise<void> {
  if (data === undefined) return;
  if (ctx.out.format !== 'table') await ctx.out.print(data);
  else if (typeof data === 'string') await ctx.out.line(data);
  else await ctx.out.json(data);
}
