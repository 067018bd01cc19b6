// The one HTTP core (ENGINEERING.md habit 4): base URL, auth header,
// User-Agent, timeouts, abort, retries, both error shapes of the service, and
// zod validation at the boundary. Only this file talks to undici.
import type { Dispatcher, Pool as PoolType } from 'undici';
import { errors as undiciErrors, Pool, poolRequest } from './undici-lite.js';
import { AnswerTooLargeError, CliError, NetworkError, TimeoutError, UnexpectedResponseError } from './errors.js';
import { errorForAnswer, redirectForAnswer } from './answer-errors.js';
import { describeNetworkError, isNotSent } from './http-errors.js';
import { baseUrlPrefixHint } from './base-url-hint.js';
import { loopbackAwareLookup } from './loopback.js';
import type { RecordWalk, RecordWalkRun } from './paginate.js';
import { DEFAULT_CONNECTIONS, poolFor } from './pool.js';
import { Redactor } from './redact.js';
import { describeIssue, type SchemaIssue } from './response-issues.js';
import { CLI_VERSION } from './version.js';
import { announcer, judgeLayer, retryLayer, sendAttempt, throttleLayer } from './request-layers.js';
import { defaultRetryPolicy, sleep, type RetryPolicy } from './retry.js';
import type { Throttle } from './throttle.js';


/** What the core needs of a schema: zod (classic or mini) schemas fit. */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: { issues: SchemaIssue[] } };
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export type QueryValue = string | number | boolean | undefined | null;

/** Reads get seconds; imports are synchronous on the service and get minutes (service-spec.md "What the service does"). */
const DEFAULT_READ_TIMEOUT_MS = 30_000;
export const DEFAULT_IMPORT_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Largest answer body read (CLI.md "answer size"); past it the request fails, never retried. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

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
  /**
   * One line for the user before a wait of ANNOUNCED_WAIT_MS or more (a 429's
   * Retry-After, a long backoff); the caller leaves it out with --quiet.
   */
  onWait?: (line: string, waitMs: number) => void;
  /** Largest answer body read; MAX_ANSWER_BYTES unless a test needs a small one. */
  maxBodyBytes?: number;
  /** Where the base URL came from (`env EMAIL_BASE_URL`, `profile "staging"`), named when nothing answers there. */
  baseUrlSource?: string;
  /** What to do about a 401, naming where the key came from (src/core/settings.ts refusedKeyHint). */
  refusedKeyHint?: string;
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
  /** Request headers of the caller's own (`email api -H`); the Authorization header is always the client's. */
  headers?: Record<string, string>;
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

/**
 * What a creation answered (write()): the validated body, or, when a 2xx body
 * does not fit, the body as received with the reason. The operation was done
 * either way, so it is never repeated (CLI.md "lenient reading").
 */
export type WriteAnswer<T> =
  | { fits: true; data: T; headers: RawResponse['headers'] }
  | { fits: false; data: unknown; text: string; problem: string };

/** A request as the layers carry it: its options and the path with the base path and query. */
type LayeredOptions = RequestOptions<unknown> & { fullPath: string };

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
  /** Made at the first request, so that a walk asked for before it sizes it (paginate()). */
  private poolMade?: PoolType;
  private connections: number;
  /** The flow control every request of this client goes through once a walk or an import made it (flow()). */
  private throttle?: Throttle;
  private readonly redactor = new Redactor();
  private readonly policy: RetryPolicy;
  private readonly userAgent = `email-cli/${CLI_VERSION} node/${process.versions.node}`;
  private readonly layers: (request: LayeredOptions) => Promise<RawResponse>;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = new URL(options.baseUrl);
    this.basePath = this.baseUrl.pathname.replace(/\/+$/, '');
    this.redactor.add(options.apiKey);
    this.policy = { ...defaultRetryPolicy, ...options.retry };
    this.connections = options.connections ?? DEFAULT_CONNECTIONS;
    this.layers = this.buildLayers();
  }

  private get pool(): PoolType {
    return (this.poolMade ??= connectionPool(this.baseUrl.origin, { connections: this.connections, connectTimeoutMs: this.options.connectTimeoutMs, keepAliveTimeout: 10_000 }));
  }

  /**
   * A paged listing's records, through the one page walk (core/paginate.ts):
   * a connection for each page in flight (core/pool.ts; the first request
   * fixes the pool, so a walk asked for after one keeps it), every page
   * through the client's flow control.
   */
  async paginate<P, R>(listing: RecordWalk<P, R>): Promise<RecordWalkRun<P, R>> {
    if (!this.poolMade) this.connections = Math.max(this.connections, poolFor(listing.concurrency).connections);
    const [{ walkRecords }] = await Promise.all([import('./paginate.js'), this.flow(listing.concurrency)]);
    return walkRecords(listing);
  }

  /**
   * The client's flow control (core/throttle.ts), made by a walk or an import:
   * from then on every request of the client goes through it, so one 429
   * pauses them all; the first call sets its ceiling on requests in flight
   * (--concurrency).
   */
  async flow(maxInFlight: number): Promise<Throttle> {
    const { Throttle } = await import('./throttle.js');
    return (this.throttle ??= new Throttle({ maxInFlight, debug: this.options.debug && ((line) => this.debug(line)) }));
  }

  /** Sends a request with retries and returns the validated body. */
  async request<T = unknown>(opts: RequestOptions<T>): Promise<T> {
    const res = await this.send(opts);
    return this.validate(opts, res);
  }

  /**
   * For creations: like request(), but a 2xx body that does not fit the schema
   * is handed back as received instead of thrown, since the thing was created
   * and failing now would invite the user to create it twice.
   */
  async write<T>(opts: RequestOptions<T> & { schema: ResponseSchema<T> }): Promise<WriteAnswer<T>> {
    const res = await this.send(opts);
    const parsed = opts.schema.safeParse(res.data);
    if (parsed.success) return { fits: true, data: parsed.data, headers: res.headers };
    const problem = this.redactor.redact(describeIssue(parsed.error.issues[0], res.data));
    this.debug(`  answer does not fit: ${problem}`);
    return { fits: false, data: res.data, text: res.text, problem };
  }

  /**
   * Like request(), but also gives the status and headers; errors are still
   * thrown. One send wrapped in layers (src/core/request-layers.ts): wait
   * announcements, retries, a walk's flow control, and the judging of the answer.
   */
  send(opts: RequestOptions<unknown>): Promise<RawResponse> {
    return this.layers({ ...opts, fullPath: this.fullPath(opts.path, opts.query) });
  }

  /** The one send (ApiClient.once) with judge, throttle and retry around it, innermost first. */
  private buildLayers(): (request: LayeredOptions) => Promise<RawResponse> {
    const signalOf = (request: LayeredOptions) => this.combinedSignal(request.signal);
    const send = sendAttempt<RawResponse, LayeredOptions>((request) => this.once(request, request.fullPath));
    // CLI.md "redirects": the one place a 3xx is judged, for every command. Neither followed nor
    // retried, and no success either: the request never reached the service.
    const judged = judgeLayer<RawResponse, LayeredOptions>((res, r) => {
      const redact = (text: string) => this.redactor.redact(text);
      if (res.status >= 400) {
        const error = errorForAnswer(r.method, r.path, res, redact);
        if (res.status === 404) error.hint = baseUrlPrefixHint(this.options.baseUrl, r.path, this.options.baseUrlSource);
        if (res.status === 401 && this.options.refusedKeyHint) error.hint = this.options.refusedKeyHint;
        return error;
      }
      this.debug(`  ${res.status} is a redirect: not followed, not retried`);
      return redirectForAnswer(r.method, r.path, `${this.baseUrl.origin}${r.fullPath}`, res, redact);
    })(send);
    const throttled = throttleLayer<RawResponse, LayeredOptions>(signalOf, () => this.throttle)(judged);
    const announce = announcer((line, waitMs) => this.options.onWait?.(this.redactor.redact(line), waitMs), () => this.now());
    return retryLayer<RawResponse, LayeredOptions>({ policy: this.policy, now: () => this.now(), debug: (line) => this.debug(line), sleep, signalOf, onWait: announce })(throttled);
  }

  /**
   * An HMAC of the key under `salt`: how an import journal knows the key again
   * without holding it (CLI.md "--journal"); the key itself never leaves here.
   * node:crypto is loaded only then, not by every command that makes a client.
   */
  async keyDigest(salt: string): Promise<string> {
    const { createHmac } = await import('node:crypto');
    return createHmac('sha256', salt).update(this.options.apiKey).digest('hex');
  }

  /** Text the service sent back, with the key masked (CLI.md "secrets": an answer may echo it). */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  async close(): Promise<void> {
    await this.poolMade?.close().catch(() => undefined);
  }

  /**
   * At the end of a process that exits next: leaves idle connections for the
   * exit to close, and drops whatever is still on the wire (an answer cut at
   * the size limit, a walk stopped by a closed pipe): the command's result is
   * decided, nothing in flight can change it, and a graceful close would wait
   * for the other side to finish. Node
   * builds process.stderr when it closes a socket (its net module compares
   * the socket with process.stderr), a socket of its own when stderr is a
   * pipe. It pays only together with the stand-in for node:assert in
   * undici's bundle (src/core/undici-assert-stub.cjs), as either alone leaves
   * stderr to be built by the other (bench/README.md); test/cli.test.ts fails
   * when a read builds stderr.
   */
  async settle(): Promise<void> {
    if (!this.poolMade) return;
    const { running, pending, queued } = this.poolMade.stats;
    if (running + pending + queued > 0) await this.destroy();
  }

  /** Throws away connections and pending requests at once (second Ctrl-C). */
  async destroy(): Promise<void> {
    await this.poolMade?.destroy().catch(() => undefined);
  }

  private async once(opts: RequestOptions<unknown>, path: string): Promise<RawResponse> {
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
    const headers: Record<string, string> = {
      'user-agent': this.userAgent,
      accept: 'application/json',
      ...opts.headers,
      authorization: `Bearer ${this.options.apiKey}`,
    };
    let body: string | Uint8Array | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';

    const signals = [opts.signal, this.options.signal].filter((s): s is AbortSignal => !!s);
    const started = performance.now();
    // Answer lines name the request with its query (CLI.md "--debug": which page of a walk failed?).
    const traced = maskSecretParameters(path.slice(this.basePath.length));
    this.debug(`> ${opts.method} ${this.baseUrl.origin}${maskSecretParameters(path)}${body ? ` (${body.length} bytes)` : ''}`);
    this.debug(`> authorization: Bearer ***`);
    const signal = signals.length <= 1 ? signals[0] : AbortSignal.any(signals);
    const res = await exchange(this.pool, { method: opts.method, path, headers, body, timeoutMs, signal }, (r) => this.readBody(r, opts.method, opts.path));
    const elapsed = Math.round(performance.now() - started);
    if ('status' in res) {
      this.debug(`< ${res.status} ${opts.method} ${traced} ${elapsed}ms`);
      if (this.options.debug) for (const [name, value] of Object.entries(res.headers)) this.debug(`< ${name}: ${String(value)}`);
      return { status: res.status, headers: res.headers, data: parseBody(res.body), text: res.body };
    }
    if (res.failure === 'timeout') {
      this.debug(`< timeout ${opts.method} ${traced} after ${elapsed}ms`);
      throw new TimeoutError(opts.method, opts.path, timeoutMs);
    }
    if (res.failure === 'aborted') throw res.error; // Ctrl-C: the caller decides
    const message = this.redactor.redact(describeNetworkError(res.error));
    this.debug(`< network error ${opts.method} ${traced} after ${elapsed}ms: ${message}`);
    const error = new NetworkError(`${opts.method} ${opts.path}: ${message}`, opts.method, opts.path, { cause: res.error }, isNotSent(res.error));
    if (error.neverSent) {
      const from = this.options.baseUrlSource ? ` (the base URL from ${this.options.baseUrlSource})` : '';
      error.hint = `nothing answered at ${this.options.baseUrl}${from}; \`email doctor\` checks the profile, the base URL and the connection`;
    }
    throw error;
  }

  /**
   * The body as text, counted as it streams in: past the limit the transfer
   * is cut and the request fails at once (CLI.md "answer size"), so a huge or
   * endless answer costs at most the limit in memory.
   */
  private async readBody(res: Dispatcher.ResponseData, method: string, path: string): Promise<string> {
    const limit = this.options.maxBodyBytes ?? MAX_ANSWER_BYTES;
    const tooLarge = () => {
      res.body.destroy();
      this.debug(`< ${res.statusCode} ${method} ${path}: answer over ${limit} bytes, not read`);
      return new AnswerTooLargeError(method, path, limit);
    };
    const declared = Number(header(res.headers, 'content-length'));
    if (Number.isFinite(declared) && declared > limit) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size).toString('utf8');
  }

  private validate<T>(opts: RequestOptions<T>, res: RawResponse): T {
    if (!opts.schema) return res.data as T;
    const parsed = opts.schema.safeParse(res.data);
    if (parsed.success) return parsed.data;
    throw new UnexpectedResponseError(opts.method, opts.path, this.redactor.redact(describeIssue(parsed.error.issues[0], res.data)));
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

/** A pool of keep-alive connections to `origin`, for API calls and webhook posts alike. */
export function connectionPool(origin: string, o: { connections: number; keepAliveTimeout: number; connectTimeoutMs?: number }): PoolType {
  // `localhost` never goes to the resolver (core/loopback.ts loopbackAwareLookup).
  return new Pool(origin, { connections: o.connections, connect: { timeout: o.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, lookup: loopbackAwareLookup }, keepAliveTimeout: o.keepAliveTimeout });
}

export interface ExchangeRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: Record<string, string> | string[];
  body?: string | Uint8Array;
  /** From the start of the request to the end of what `read` takes of the answer. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The answer (its body as `read` took it), or why there was none. */
export type Exchange<T> =
  | { status: number; headers: RawResponse['headers']; body: T }
  | { failure: 'timeout' }
  | { failure: 'aborted' | 'network'; error: unknown };

/**
 * The one HTTP exchange of the tool, API calls and webhook posts alike: a 3xx
 * is an answer, never followed (CLI.md "redirects"). An error of the tool's own
 * that `read` throws (an answer too large) passes through.
 */
export async function exchange<T>(pool: PoolType, request: ExchangeRequest, read: (res: Dispatcher.ResponseData) => Promise<T>): Promise<Exchange<T>> {
  const { timeoutMs } = request;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new Error('timeout')), timeoutMs);
  const signal = request.signal ? AbortSignal.any([timeout.signal, request.signal]) : timeout.signal;
  try {
    const res = await poolRequest(pool, { method: request.method as Dispatcher.HttpMethod, path: request.path, headers: request.headers, body: request.body, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    return { status: res.statusCode, headers: res.headers, body: await read(res) };
  } catch (error) {
    if (error instanceof CliError && !(error instanceof NetworkError)) throw error;
    if (timeout.signal.aborted || isUndiciTimeout(error)) return { failure: 'timeout' };
    return { failure: signal.aborted ? 'aborted' : 'network', error };
  } finally {
    clearTimeout(timer);
  }
}

function isUndiciTimeout(err: unknown): boolean {
  return (
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError ||
    err instanceof undiciErrors.ConnectTimeoutError
  );
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Query parameters whose value is a secret by its name (`email api --query token=…`), whatever the redactor knows. */
const SECRET_PARAMETER = /key|token|secret|passw|signature|auth|session/i;

/** The path with the values of secret-named query parameters shown as `***`; everything else as sent. */
export function maskSecretParameters(path: string): string {
  const at = path.indexOf('?');
  if (at < 0) return path;
  const query = path.slice(at).replace(/([?&])([^=&#]*)=([^&#]*)/g, (whole, sep: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // A malformed escape: judged as written.
    }
    return SECRET_PARAMETER.test(decoded) ? `${sep}${name}=***` : whole;
  });
  return `${path.slice(0, at)}${query}`;
}
