// email api <path>: a raw authenticated request through the same core, so it
// gets the same retries, errors and output as every other command.
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import type { HttpMethod, QueryValue } from '../../core/http.js';
import { readJsonArgument } from '../../core/json-input.js';

export async function run(opts: Record<string, unknown>, ctx: Context, args: string[]): Promise<number> {
  const rawPath = args[0] ?? '';
  if (!rawPath.startsWith('/')) throw new UsageError(`path must start with "/", got "${rawPath}"`);
  const [path, inlineQuery] = splitQuery(rawPath);
  const query: Record<string, QueryValue[]> = {};
  for (const [k, v] of inlineQuery) (query[k] ??= []).push(v);
  for (const pair of (opts.query as string[] | undefined) ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`-q/--query takes key=value, got "${pair}"`);
    (query[pair.slice(0, eq)] ??= []).push(pair.slice(eq + 1));
  }
  let rawBody: string | undefined;
  if (opts.data !== undefined) {
    const doc = await readJsonArgument(String(opts.data), '-d/--data', ctx.io.stdin, ctx.cwd);
    rawBody = JSON.stringify(doc);
  }
  const method = ((opts.method as string | undefined) ?? (rawBody !== undefined ? 'POST' : 'GET')) as HttpMethod;
  const client = await ctx.api();
  const res = await client.send({
    method,
    path,
    query,
    rawBody,
    // Only methods that HTTP defines as idempotent are repeated after a 5xx.
    idempotent: method === 'GET' || method === 'PUT' || method === 'DELETE',
  });
  // Raw responses have no table view: JSON unless ndjson or csv was asked for.
  const output = ctx.out.format === 'table' ? 'json' : ctx.out.format;
  if (res.data === undefined) return 0;
  if (output === 'json') await ctx.out.json(res.data);
  else await ctx.out.print(res.data);
  return 0;
}

function splitQuery(raw: string): [string, [string, string][]] {
  const q = raw.indexOf('?');
  if (q < 0) return [raw, []];
  return [raw.slice(0, q), [...new URLSearchParams(raw.slice(q + 1)).entries()]];
}
