// email api <path>: a raw authenticated request through the same core, so it
// gets the same retries, errors and output as every other command.
import { UsageError } from '../../core/errors.js';
import type { HttpMethod, QueryValue } from '../../core/http.js';
import { WALK_CONCURRENCY } from '../../core/pool.js';
import { choiceOption, defineCommand, intOption, listOption, requiredArg, switchOption, textOption } from '../define.js';

export default defineCommand({
  name: 'api',
  summary: 'Make a raw authenticated request to any path of the service',
  // Any path: no schema, so --fields takes any name (matched without regard to case).
  records: { list: true },
  args: { path: requiredArg('path', 'path below the base URL, e.g. /email/clients/campaigns') },
  options: {
    method: choiceOption('--method', '<method>', 'HTTP method (default: GET, or POST with --data)', ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], { short: '-X' }),
    data: textOption('--data', '<json>', 'request body: JSON, @file, or @- for stdin', { short: '-d' }),
    // No -q: -q is the global --quiet everywhere (CLI.md "api").
    query: listOption('--query', '<key=value>', 'query parameter (repeat)'),
    paginate: switchOption('--paginate', 'GET every page of a paged answer (Results, PageNumber, NumberOfPages) and print all Results as one JSON array'),
    concurrency: intOption('--concurrency', '<n>', 'pages in flight at once with --paginate', { min: 1, max: 32, default: WALK_CONCURRENCY }),
  },
  examples: [
    'email api /email/clients/campaigns',
    'email api /email/campaigns/<id>/unsubscribes --query pagesize=10 --query orderfield=email',
    'email api -X POST /email/segments/<list-id> -d \'{"Title":"VIPs"}\'',
    'email api -X PUT "/email/subscribers/<list-id>?email=ada@example.com" -d @body.json',
    'email api /email/campaigns/<id>/unsubscribes --query pagesize=1000 --paginate -o ndjson',
  ],
  async run(input, ctx) {
    // The path below the base URL, with or without its leading slash (gh api takes both); a whole URL is not a path.
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input.path)) {
      throw new UsageError(`give the path below the base URL (e.g. /email/clients/campaigns), not a whole URL: "${input.path}"`);
    }
    const rawPath = input.path.startsWith('/') ? input.path : `/${input.path}`;
    const [path, inlineQuery] = splitQuery(rawPath);
    const query: Record<string, QueryValue[]> = {};
    for (const [k, v] of inlineQuery) (query[k] ??= []).push(v);
    for (const pair of input.query) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new UsageError(`--query takes key=value, got "${pair}"`);
      (query[pair.slice(0, eq)] ??= []).push(pair.slice(eq + 1));
    }
    let rawBody: string | undefined;
    if (input.data !== undefined) {
      const { readJsonArgument } = await import('../../core/json-input.js');
      const doc = await readJsonArgument(input.data, '-d/--data', ctx.stdin.stream, ctx.cwd, ctx.signal);
      rawBody = JSON.stringify(doc);
    }
    const method: HttpMethod = input.method ?? (rawBody !== undefined ? 'POST' : 'GET');
    if (input.paginate) {
      if (method !== 'GET') throw new UsageError(`--paginate reads the pages of a GET, not a ${method}`);
      if (Object.keys(query).some((k) => k.toLowerCase() === 'page')) throw new UsageError('--paginate walks every page from the first: leave out the page query parameter');
      const { paginate } = await import('./paginate.js');
      return paginate(ctx, path, query, { concurrency: input.concurrency, limit: input.limit });
    }
    const client = await ctx.api();
    const res = await client.send({
      method,
      path,
      query,
      rawBody,
      // Only methods that HTTP defines as idempotent are repeated after a 5xx.
      idempotent: method === 'GET' || method === 'PUT' || method === 'DELETE',
    });
    // Raw responses have no table view: the renderer prints them as JSON where the format is table.
    return { data: res.data, view: { json: true } };
  },
});

function splitQuery(raw: string): [string, [string, string][]] {
  const q = raw.indexOf('?');
  if (q < 0) return [raw, []];
  return [raw.slice(0, q), [...new URLSearchParams(raw.slice(q + 1)).entries()]];
}
