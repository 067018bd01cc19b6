// email api <path>: a raw authenticated request through the same core, so it
// gets the same retries, errors and output as every other command.
import { ApiError, UsageError } from '../../core/errors.js';
import type { HttpMethod, QueryValue } from '../../core/http.js';
import { WALK_CONCURRENCY } from '../../core/pool.js';
import { asJson, choiceOption, defineCommand, intOption, listOption, requiredArg, switchOption, textOption, type Result } from '../define.js';

export default defineCommand({
  name: 'api',
  summary: 'Make a raw authenticated request to any path of the service',
  // No schema, so --fields takes any name.
  records: { list: true },
  args: { path: requiredArg('path', 'path below the base URL, e.g. /email/clients/campaigns') },
  options: {
    method: choiceOption('--method', '<method>', 'HTTP method (default: GET, or POST with --data)', ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], { short: '-X' }),
    data: textOption('--data', '<json>', 'request body: JSON, @file, or @- for stdin', { short: '-d' }),
    rawField: listOption('--raw-field', '<key=value>', 'a text field of the JSON body, as typed (repeat; with -X GET, of the query)', { short: '-f' }),
    field: listOption('--field', '<key=value>', 'a typed field: true, false, null and numbers as JSON, @file for a file\'s text; key[] adds to an array (repeat)', { short: '-F' }),
    header: listOption('--header', '<name:value>', 'a request header (repeat); not Authorization', { short: '-H' }),
    include: switchOption('--include', 'print the status line and the response headers before the body', { short: '-i' }),
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
    'email api /email/segments/<list-id> -f Title=VIPs -i',
  ],
  async run(input, ctx) {
    // With or without its leading slash (as gh api); a whole URL is not a path.
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
    const headers = requestHeaders(input.header);
    let rawBody: string | undefined;
    let method: HttpMethod = input.method ?? 'GET';
    // A body's readers are loaded only for a body (-d, -f, -F).
    if (input.data !== undefined || input.rawField.length || input.field.length) {
      const [{ readArgumentText, readJsonArgument }, { fieldsObject, readFields }] = await Promise.all([import('../../core/json-input.js'), import('./fields.js')]);
      const fields = await readFields(input.rawField, input.field, async (value, flag) => (await readArgumentText(value, flag, ctx.stdin.stream, ctx.cwd, ctx.signal)).text);
      if (fields.length && input.data !== undefined) throw new UsageError('give the body with -d or with -f/-F fields, not both');
      if (input.data !== undefined) rawBody = JSON.stringify(await readJsonArgument(input.data, '-d/--data', ctx.stdin.stream, ctx.cwd, ctx.signal));
      method = input.method ?? (rawBody !== undefined || fields.length ? 'POST' : 'GET');
      // As gh api: the fields of a GET are its query, otherwise the JSON body.
      if (fields.length && method === 'GET') for (const { key, value } of fields) (query[key.replace(/\[\]$/, '')] ??= []).push(String(value));
      else if (fields.length) rawBody = JSON.stringify(fieldsObject(fields));
    }
    if (input.paginate) {
      if (method !== 'GET') throw new UsageError(`--paginate reads the pages of a GET, not a ${method}`);
      if (input.include) throw new UsageError('-i shows one answer\'s headers: not with --paginate');
      if (Object.keys(query).some((k) => k.toLowerCase() === 'page')) throw new UsageError('--paginate walks every page from the first: leave out the page query parameter');
      const { paginate } = await import('./paginate.js');
      return paginate(ctx, path, query, { concurrency: input.concurrency, limit: input.limit });
    }
    const client = await ctx.api();
    try {
      const res = await client.send({
        method,
        path,
        query,
        rawBody,
        headers,
        // Only methods that HTTP defines as idempotent are repeated after a 5xx.
        idempotent: method === 'GET' || method === 'PUT' || method === 'DELETE',
      });
      return await answerResult(res, input.include);
    } catch (err) {
      // As gh api: an error answer's body goes to stdout too (exit as the error says).
      if (err instanceof ApiError && err.answer && err.status >= 400 && err.answer.data !== undefined) return { ...(await answerResult(err.answer, input.include)), error: err };
      throw err;
    }
  },
});

type Answer = NonNullable<ApiError['answer']>;

/** Raw answers have no table view; with -i, text after the head, as gh api -i does. */
async function answerResult(res: Answer, include: boolean): Promise<Result> {
  if (!include) return { data: res.data, people: asJson };
  const { STATUS_CODES } = await import('node:http');
  const head = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd(), ...Object.entries(res.headers).map(([name, value]) => `${name}: ${String(value)}`)];
  const body = typeof res.data === 'string' ? res.data : res.data === undefined ? '' : JSON.stringify(res.data, null, 2);
  const text = `${head.join('\n')}\n\n${body}\n`;
  // Text with no other form: no data, so every format prints it as it is.
  return { people: (_, out) => out.text(text) };
}

/** Names lower-cased, so a header given twice is one; the key is the client's own. */
function requestHeaders(given: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of given) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new UsageError(`-H takes "Name: value", got "${line}"`);
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name === 'authorization') throw new UsageError('-H cannot set Authorization: the key comes from the profile or EMAIL_API_KEY, never the command line');
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

function splitQuery(raw: string): [string, [string, string][]] {
  const q = raw.indexOf('?');
  if (q < 0) return [raw, []];
  return [raw.slice(0, q), [...new URLSearchParams(raw.slice(q + 1)).entries()]];
}
