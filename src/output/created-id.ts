// Printing what a create call answered: a bare identifier for people and
// `$(…)` in scripts, the service's body unchanged for -o json/ndjson/csv.
import type { Context } from '../context.js';

export async function printCreated(ctx: Context, data: unknown, id: string | undefined, what: string): Promise<void> {
  if (ctx.out.format !== 'table') {
    await ctx.out.print(data);
    return;
  }
  if (id === undefined || id === '') {
    ctx.log.warn(`${what} created, but the service's answer holds no identifier`);
    return;
  }
  await ctx.out.line(id);
}
