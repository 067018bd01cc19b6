// The one HTTP core (ENGINEERING.md habit 4): base URL, auth header,
// User-Agent, timeouts, abort, retries, both error shapes of the service, and
// zod validation at the boundary. Only this file talks to undici.
import type { Dispatcher, Pool as PoolType } from 'undici';
import { errors as undiciErrors, Pool, poolRequest } from './undici-lite.js';
import {
  ApiError,
  AuthError,
  NetworkError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
} from './errors.js';
import { loopbackAwareLookup } from './config.js';
import { Redactor } from './redact.js';
import { CLI_VERSION } from './version.js';
import { decideRetry, defaultRetryPolicy, sleep, type Failure, type RetryPolicy } from './retry.js';


/** What the core needs of a schema: zod (classic or mini) schemas fit. */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export type QueryValue = string | number | boolean | undefined | null;

/** Reads get seconds; imports are synchronous on the service and get minutes (service-spec.md "What the service does"). */
export const DEFAULT_READ_TIMEOUT_MS = 30_000;
export const DEFAULT_IMPORT_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Keep-alive connections of a client unless it asks for more (an import's --concurrency). */
export const DEFAULT_CONNECTIONS = 8;

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Per-request timeout for ordinary calls (--timeout). */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  /** Keep-alive connections to the service; imports with --concurrency need at least that many. */
  connections?: number;
  retry?: Partial<RetryPolicy>;
  /** --debug sink; lines are already redacted. */
  debug?: (line: string) => void;
  /** Aborts every request (Ctrl-C). */
  signal?: AbortSignal;
  now?: () => number;
}

export interface RequestOptions<T> {
  method: HttpMethod;
  /** Path below the base URL, starting with /email; path parameters already encoded. */
  path: string;
  query?: Record<string, QueryValue | QueryValue[]>;
  body?: unknown;
  /** A raw body sent as is (email api -d; import batches as UTF-8 bytes); `body` is JSON-encoded instead. */
  rawBody?: string | Uint8Array;
  schema?: ResponseSchema<T>;
  /** Safe to repeat after a 5xx or a dropped connection (reads, subscriber add/update/import). */
  idempotent: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called before each retry, e.g. to count retries in an import summary. */
  onRetry?: (reason: string, delayMs: number) => void;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the text when the body is not JSON, or undefined when empty. */
  data: unknown;
  text: string;
}

export class ApiClient {
  readonly baseUrl: URL;
  private readonly basePath: string;
  private readonly pool: PoolType;
  private readonly redactor = new Redactor();
  private readonly policy: RetryPolicy;
  private readonly userAgent = `email-cli/${CLI_VERSION} node/${process.versions.node}`;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = new URL(options.baseUrl);
    this.basePath = this.baseUrl.pathname.replace(/\/+$/, '');
    this.redactor.add(options.apiKey);
    this.policy = { ...defaultRetryPolicy, ...options.retry };
    this.pool = new Pool(this.baseUrl.origin, {
      connections: options.connections ?? DEFAULT_CONNECTIONS,
      // `localhost` never goes to the resolver (core/config.ts loopbackAwareLookup).
      connect: { timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, lookup: loopbackAwareLookup },
      keepAliveTimeout: 10_000,
    });
  }

  /** Sends a request with retries and returns the validated body. */
  async request<T = unknown>(opts: RequestOptions<T>): Promise<T> {
    const res = await this.send(opts);
    return this.validate(opts, res);
  }

  /** Like request(), but also gives the status and headers; errors are still thrown. */
  async send(opts: RequestOptions<unknown>): Promise<RawResponse> {
    const state = { retries: 0, rateLimitRetries: 0, waitedMs: 0 };
    const path = this.fullPath(opts.path, opts.query);
    for (;;) {
      let failure: Failure;
      let finalError: Error;
      try {
        const res = await this.once(opts, path);
        if (res.status < 400) return res;
        finalError = this.errorFor(opts.method, opts.path, res);
        failure = { kind: 'status', status: res.status, headers: res.headers, message: finalError.message };
      } catch (err) {
        if (!(err instanceof NetworkError)) throw err;
        finalError = err;
        failure =
          err instanceof TimeoutError
            ? { kind: 'timeout', message: err.message }
            : { kind: 'network', message: err.message, notSent: isNotSent(err.cause) };
      }
      const decision = decideRetry(failure, opts.idempotent, state, this.policy, this.now());
      this.debug(`  ${decision.reason}`);
      if (!decision.retry) {
        if (decision.capExceeded && finalError instanceof ApiError && finalError.status === 429) {
          throw new RateLimitError({
            status: 429,
            method: opts.method,
            path: opts.path,
            message: `rate limited: the service asks to wait ${Math.ceil(decision.capExceeded.wantedMs / 1000)}s, more than the retry cap allows`,
            retryAfterMs: decision.capExceeded.wantedMs,
          });
        }
        throw finalError;
      }
      opts.onRetry?.(decision.reason, decision.delayMs);
      if (failure.kind === 'status' && failure.status === 429) state.rateLimitRetries++;
      else state.retries++;
      state.waitedMs += decision.delayMs;
      await sleep(decision.delayMs, this.combinedSignal(opts.signal));
    }
  }

  async close(): Promise<void> {
    await this.pool.close().catch(() => undefined);
  }

  /** Throws away connections and pending requests at once (second Ctrl-C). */
  async destroy(): Promise<void> {
    await this.pool.destroy().catch(() => undefined);
  }

  private async once(opts: RequestOptions<unknown>, path: string): Promise<RawResponse> {
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      'user-agent': this.userAgent,
      accept: 'application/json',
    };
    let body: string | Uint8Array | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] = 'application/json';

    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error('timeout')), timeoutMs);
    const signals = [timeout.signal, opts.signal, this.options.signal].filter((s): s is AbortSignal => !!s);
    const signal = signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    const started = performance.now();
    this.debug(`> ${opts.method} ${this.baseUrl.origin}${path}${body ? ` (${body.length} bytes)` : ''}`);
    this.debug(`> authorization: Bearer ***`);
    try {
      const res = await poolRequest(this.pool, {
        method: opts.method as Dispatcher.HttpMethod,
        path,
        headers,
        body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await res.body.text();
      const elapsed = Math.round(performance.now() - started);
      this.debug(`< ${res.statusCode} ${opts.method} ${opts.path} ${elapsed}ms`);
      return { status: res.statusCode, headers: res.headers, data: parseBody(text), text };
    } catch (err) {
      const elapsed = Math.round(performance.now() - started);
      if (timeout.signal.aborted || isUndiciTimeout(err)) {
        this.debug(`< timeout ${opts.method} ${opts.path} after ${elapsed}ms`);
        throw new TimeoutError(opts.method, opts.path, timeoutMs);
      }
      if (signal.aborted) throw err; // Ctrl-C: the caller decides
      const message = this.redactor.redact(describeNetworkError(err));
      this.debug(`< network error ${opts.method} ${opts.path} after ${elapsed}ms: ${message}`);
      throw new NetworkError(`${opts.method} ${opts.path}: ${message}`, opts.method, opts.path, { cause: err });
    } finally {
      clearTimeout(timer);
    }
  }

  private validate<T>(opts: RequestOptions<T>, res: RawResponse): T {
    if (!opts.schema) return res.data as T;
    const parsed = opts.schema.safeParse(res.data);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length ? `${issue.path.map(String).join('.')}: ` : '';
    throw new UnexpectedResponseError(opts.method, opts.path, this.redactor.redact(`${where}${issue?.message ?? 'invalid body'}`));
  }

  /** Both error shapes of service-spec.md "Errors": {Code, Message[, ResultData]} and {status, message}. */
  private errorFor(method: string, path: string, res: RawResponse): ApiError {
    const body = res.data;
    let code: number | undefined;
    let message: string | undefined;
    let resultData: unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const b = body as Record<string, unknown>;
      const rawCode = b.Code ?? b.code;
      if (typeof rawCode === 'number') code = rawCode;
      else if (typeof rawCode === 'string' && /^\d+$/.test(rawCode)) code = Number(rawCode);
      const rawMessage = b.Message ?? b.message;
      if (typeof rawMessage === 'string') message = rawMessage;
      resultData = b.ResultData;
    } else if (typeof body === 'string' && body.trim()) {
      message = body.trim().slice(0, 300);
    }
    const init = {
      status: res.status,
      code,
      message: this.redactor.redact(message ?? `HTTP ${res.status}`),
      resultData,
      method,
      path,
    };
    if (res.status === 401 || res.status === 403) return new AuthError(init);
    return new ApiError(init);
  }

  private fullPath(path: string, query?: RequestOptions<unknown>['query']): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      const values = Array.isArray(value) ? value : [value];
      for (const v of values) if (v !== undefined && v !== null) params.append(key, String(v));
    }
    const qs = params.toString();
    return `${this.basePath}${path}${qs ? `?${qs}` : ''}`;
  }

  private combinedSignal(signal?: AbortSignal): AbortSignal | undefined {
    const signals = [signal, this.options.signal].filter((s): s is AbortSignal => !!s);
    return signals.length <= 1 ? signals[0] : AbortSignal.any(signals);
  }

  private debug(line: string): void {
    this.options.debug?.(this.redactor.redact(line));
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isUndiciTimeout(err: unknown): boolean {
  return (
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError ||
    err instanceof undiciErrors.ConnectTimeoutError
  );
}

/** Errors raised before a connection existed: the request cannot have reached the service. */
function isNotSent(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'UND_ERR_CONNECT_TIMEOUT';
}

function describeNetworkError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code && e.code !== 'UND_ERR_SOCKET' ? e.code : e?.cause?.code;
  const text = e?.message || e?.cause?.message || String(err);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
      return 'host not found';
    case 'ECONNRESET':
      return 'connection reset by the server';
    default:
      return code ? `${text} (${code})` : text;
  }
}
