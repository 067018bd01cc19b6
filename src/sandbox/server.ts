// The HTTP side of the sandbox: reads the body (with a cap), records the
// request, applies injected faults, checks the key and the account flag, then
// dispatches to a route handler. Whatever a client sends, it gets an answer in
// one of the service's two error shapes (service-spec.md "Errors"), never a
// crash: handler exceptions become a 500 that names the bug.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { FaultQueue, RateLimiter, rateLimitMessage } from './faults.js';
import { canonicalRequest } from './identifiers.js';
import { RouteError, Router, statusError, type SandboxContext, type SandboxResponse } from './router.js';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-cased names; the Authorization value is never kept in clear. */
  headers: Record<string, string>;
  body: unknown;
  status: number;
}

/**
 * Ring buffer of recorded requests, so a long import does not grow memory:
 * at most `capacity` requests, and the bodies of only the most recent ones up
 * to `bodyBudgetBytes` of raw JSON (older bodies are replaced by a short note).
 */
export class RequestLog {
  private readonly items: RecordedRequest[] = [];
  private readonly sizes: number[] = [];
  private total = 0;
  private retainedBodyBytes = 0;
  /** Index of the oldest item whose body is still retained. */
  private oldestWithBody = 0;

  constructor(
    private readonly capacity: number,
    private readonly bodyBudgetBytes = 32 * 1024 * 1024,
  ) {}

  push(item: RecordedRequest, bodyBytes = 0): void {
    this.total++;
    this.items.push(item);
    this.sizes.push(bodyBytes);
    this.retainedBodyBytes += bodyBytes;
    if (this.items.length > this.capacity) {
      const drop = this.items.length - this.capacity;
      for (let i = 0; i < drop; i++) if (i >= this.oldestWithBody) this.retainedBodyBytes -= this.sizes[i];
      this.items.splice(0, drop);
      this.sizes.splice(0, drop);
      this.oldestWithBody = Math.max(0, this.oldestWithBody - drop);
    }
    while (this.retainedBodyBytes > this.bodyBudgetBytes && this.oldestWithBody < this.items.length - 1) {
      const i = this.oldestWithBody++;
      if (this.sizes[i] > 0) this.items[i].body = `[body of ${this.sizes[i]} bytes no longer kept]`;
      this.retainedBodyBytes -= this.sizes[i];
    }
  }

  /** The live array (oldest first). */
  get list(): RecordedRequest[] {
    return this.items;
  }

  /** Requests seen since the last clear, including those that fell out of the ring. */
  get count(): number {
    return this.total;
  }

  clear(): void {
    this.items.length = 0;
    this.sizes.length = 0;
    this.total = 0;
    this.retainedBodyBytes = 0;
    this.oldestWithBody = 0;
  }
}

interface ServerDeps {
  router: Router;
  ctx: SandboxContext;
  log: RequestLog;
  faults: FaultQueue;
  random: () => number;
  rateLimiter?: RateLimiter;
  /** False: requests are not recorded at all (the CLI, where nobody reads them). */
  record: boolean;
  /** Where unexpected handler exceptions are reported. */
  reportError(error: unknown, method: string, path: string): void;
}

/**
 * Deepest JSON nesting accepted. The deepest legitimate body (segment
 * RuleGroups) nests 5 levels; 64 is the default limit of the usual JSON
 * readers of web services (System.Text.Json and Json.NET). Without it a body
 * nested 100,000 deep would reach handlers and overflow the stack when echoed.
 */
const MAX_JSON_DEPTH = 64;

/** Depth of a parsed JSON value (a scalar is 0), computed without recursion; stops counting past the limit. */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) stack.push([child, level]);
    }
  }
  return deepest;
}

/** Requests whose bodies exceed this are not even drained: the connection is closed. */
const DRAIN_LIMIT_BYTES = 512 * 1024 * 1024;

export function createRequestListener(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((error) => {
      deps.reportError(error, req.method ?? '?', req.url ?? '?');
      if (!res.headersSent) send(res, statusError(500, 'Internal error; retry later.'));
      else res.destroy();
    });
  };
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { ctx } = deps;
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const path = url.pathname;
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (!(key in query)) query[key] = value;

  const read = await readBody(req, ctx.options.bodyLimitBytes);
  if (read.kind === 'aborted') return;

  const record: RecordedRequest = { method, path, query, headers: recordableHeaders(req), body: undefined, status: 0 };
  if (deps.record) deps.log.push(record, read.kind === 'ok' ? read.bytes.length : 0);
  const respond = (response: SandboxResponse, extraHeaders?: Record<string, string>): void => {
    record.status = response.status;
    send(res, extraHeaders ? { ...response, headers: { ...extraHeaders, ...response.headers } } : response, method === 'HEAD');
  };

  if (read.kind === 'too-large') {
    res.setHeader('Connection', 'close');
    respond(statusError(413, `Request body exceeds the sandbox limit of ${ctx.options.bodyLimitBytes} bytes.`));
    if (read.destroy) res.on('finish', () => req.destroy());
    return;
  }

  // The parsed body is recorded even when the request is then refused.
  let body: unknown;
  let malformed: string | undefined;
  const text = decodeUtf8(read.bytes);
  const hasBody = (text ?? read.bytes.toString('utf8')).trim().length > 0;
  if (text === undefined) {
    // A JSON body is UTF-8 (RFC 8259 §8.1); bytes that are not are refused, not silently replaced.
    malformed = 'the body is not valid UTF-8';
  } else if (hasBody) {
    try {
      body = JSON.parse(text);
      if (nestingDepth(body) > MAX_JSON_DEPTH) malformed = `the body nests deeper than ${MAX_JSON_DEPTH} levels`;
    } catch (error) {
      malformed = (error as Error).message;
    }
  }
  record.body = malformed === undefined ? body : (text ?? read.bytes.toString('utf8')).slice(0, 1000);

  if (ctx.options.latencyMs > 0) await sleep(ctx.options.latencyMs);

  const fault = deps.faults.take(method, path);
  if (fault?.kind === 'drop') {
    record.status = -1;
    req.socket.destroy();
    return;
  }
  if (fault) {
    respond(statusError(fault.status, fault.message), fault.headers);
    return;
  }

  // service-spec.md "Authentication" rules 1 and 2: `Bearer <API_KEY>`, else 401.
  const authorization = req.headers.authorization;
  if (authorization === undefined) {
    respond(statusError(401, 'No API key was provided: send the header Authorization: Bearer <API_KEY>.'));
    return;
  }
  if (authorization !== `Bearer ${ctx.options.apiKey}`) {
    respond(statusError(401, 'Invalid API key.'));
    return;
  }
  // Rule 3: a suspended account gives 403.
  if (ctx.state.accountSuspended) {
    respond(statusError(403, 'Account suspended or not enough credits.'));
    return;
  }

  let rateHeaders: Record<string, string> | undefined;
  if (deps.rateLimiter) {
    const verdict = deps.rateLimiter.check(Date.now());
    rateHeaders = verdict.headers;
    if (verdict.limited) {
      respond(statusError(429, rateLimitMessage(verdict.retryAfterSeconds)), rateHeaders);
      return;
    }
  }

  if (ctx.options.failRate > 0 && deps.random() < ctx.options.failRate) {
    respond(statusError(500, 'Internal error (injected by --fail-rate); retry later.'), rateHeaders);
    return;
  }

  // HEAD is answered as GET without the body, as any HTTP server does.
  const match = deps.router.match(method === 'HEAD' ? 'GET' : method, path);
  if (!match) {
    const allowed = deps.router.allowedMethods(path);
    if (allowed.length === 0) {
      respond(statusError(404, `No such endpoint: ${method} ${path}`), rateHeaders);
    } else {
      // The path exists with other methods: 405 with Allow (RFC 9110 §15.5.6) rather than a 404 that hides the typo.
      const allow = (allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed).join(', ');
      respond(statusError(405, `Method ${method} is not allowed on ${path}; allowed: ${allow}.`), { ...rateHeaders, Allow: allow });
    }
    return;
  }
  // service-spec.md "Conventions": bodies sent to the service carry Content-Type: application/json.
  if (hasBody && !isJsonMediaType(req.headers['content-type'])) {
    const given = req.headers['content-type'];
    respond(statusError(415, `The request body must be sent with Content-Type: application/json (${given === undefined ? 'no Content-Type was sent' : `got ${given}`}).`), rateHeaders);
    return;
  }
  if (malformed !== undefined) {
    respond(statusError(400, `Malformed JSON in the request body: ${malformed}`), rateHeaders);
    return;
  }

  let response: SandboxResponse;
  try {
    // Ids in the sandbox's own form, whichever form the client sent (identifiers.ts).
    response = await match.def.handler({ method, path, ...canonicalRequest(match.params, query, body), headers: req.headers }, ctx);
  } catch (error) {
    if (error instanceof RouteError) {
      response = error.response;
    } else {
      deps.reportError(error, method, path);
      response = statusError(500, `Sandbox internal error while handling ${method} ${path}: ${(error as Error)?.message ?? String(error)}`);
    }
  }
  respond(response, rateHeaders);
}

/**
 * Requests Node's HTTP parser refuses before any handler runs (a request line
 * and headers over its size limit, bytes that are not HTTP) still get an
 * answer in the status shape: 431 for the size, 400 otherwise.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const message = status === 431 ? 'The request line and headers exceed the 16 KiB limit.' : `Malformed HTTP request (${error.code ?? error.message}).`;
  const body = JSON.stringify({ status, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

type BodyRead = { kind: 'ok'; bytes: Buffer } | { kind: 'too-large'; destroy: boolean } | { kind: 'aborted' };

function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > DRAIN_LIMIT_BYTES) {
      req.pause();
      resolve({ kind: 'too-large', destroy: true });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (tooLarge) {
        if (size > DRAIN_LIMIT_BYTES) {
          req.pause();
          resolve({ kind: 'too-large', destroy: true });
        }
        return;
      }
      if (size > limit) {
        // Keep draining (and discarding) so the client can read the 413.
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? { kind: 'too-large', destroy: false } : { kind: 'ok', bytes: Buffer.concat(chunks) }));
    req.on('error', () => resolve({ kind: 'aborted' }));
    req.on('aborted', () => resolve({ kind: 'aborted' }));
  });
}

/** Writes the answer; for HEAD only its headers (Content-Length still that of the body a GET would get). */
function send(res: ServerResponse, response: SandboxResponse, headOnly = false): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = { ...response.headers };
  let payload = '';
  if (response.body !== undefined) {
    payload = JSON.stringify(response.body);
    headers['Content-Type'] = 'application/json; charset=utf-8';
  }
  headers['Content-Length'] = String(Buffer.byteLength(payload));
  res.writeHead(response.status, headers);
  res.end(headOnly ? undefined : payload);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text (a leading byte order mark dropped), or undefined when it is not valid UTF-8. */
function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function recordableHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name] = name === 'authorization' ? redactAuthorization(String(value)) : Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function redactAuthorization(value: string): string {
  return value.startsWith('Bearer ') ? 'Bearer ***' : '***';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
