// The HTTP side of the sandbox: reads the body (with a cap), records the
// request, applies injected faults, checks the key and the account flag, then
// dispatches to a route handler. Whatever a client sends, it gets an answer in
// one of the service's two error shapes (service-spec.md "Errors"), never a
// crash: handler exceptions become a 500 that names the bug.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultQueue, RateLimiter, rateLimitMessage } from './faults.js';
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

export interface ServerDeps {
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
  if (deps.record) deps.log.push(record, read.kind === 'ok' ? read.text.length : 0);
  const respond = (response: SandboxResponse, extraHeaders?: Record<string, string>): void => {
    record.status = response.status;
    send(res, extraHeaders ? { ...response, headers: { ...extraHeaders, ...response.headers } } : response);
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
  if (read.text.trim().length > 0) {
    try {
      body = JSON.parse(read.text);
    } catch (error) {
      malformed = (error as Error).message;
    }
  }
  record.body = malformed === undefined ? body : read.text.slice(0, 1000);

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

  const match = deps.router.match(method, path);
  if (!match) {
    respond(statusError(404, `No such endpoint: ${method} ${path}`), rateHeaders);
    return;
  }
  if (malformed !== undefined) {
    respond(statusError(400, `Malformed JSON in the request body: ${malformed}`), rateHeaders);
    return;
  }

  let response: SandboxResponse;
  try {
    response = await match.def.handler({ method, path, params: match.params, query, headers: req.headers, body }, ctx);
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

type BodyRead = { kind: 'ok'; text: string } | { kind: 'too-large'; destroy: boolean } | { kind: 'aborted' };

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
    req.on('end', () => resolve(tooLarge ? { kind: 'too-large', destroy: false } : { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => resolve({ kind: 'aborted' }));
    req.on('aborted', () => resolve({ kind: 'aborted' }));
  });
}

function send(res: ServerResponse, response: SandboxResponse): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = { ...response.headers };
  let payload = '';
  if (response.body !== undefined) {
    payload = JSON.stringify(response.body);
    headers['Content-Type'] = 'application/json; charset=utf-8';
  }
  headers['Content-Length'] = String(Buffer.byteLength(payload));
  res.writeHead(response.status, headers);
  res.end(payload);
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
