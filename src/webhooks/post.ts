// Sends a delivery body to a receiver: used by trigger, replay and listen's
// --forward-to. These go to URLs the user names (their own receiver), never to
// the service, so no API key is attached and the service's retry policy does
// not apply: each request is made once and its outcome reported. They go
// through the API client's transport (src/core/http.ts exchange), so they
// reach every port an API request reaches (fetch refuses its "bad ports"). A redirect
// is an answer, never followed (CLI.md `webhooks listen`: it counts as not
// accepted): following it would send the delivery somewhere the user did not
// name (a 302 turned it into a GET to another host).
//
// Of the receiver's answer only the status counts, and the first few KiB are
// kept for the log; the connection is then dropped (CLI.md "answer size":
// memory stays bounded whatever the receiver sends, issue 19.7: an endless 200
// body was once read until --timeout, 1.1 GB in 10 s).
import type { Dispatcher, Pool } from 'undici';
import { UsageError } from '../core/errors.js';
import type { Exchange, ExchangeRequest } from '../core/http.js';
import { describeNetworkError, redirectWords, timedOut } from '../core/http-errors.js';
import { CLI_VERSION } from '../core/version.js';

const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
/** What is read of a receiver's answer body, for the log: a line of text or an error page's start. */
export const ANSWER_PREFIX_BYTES = 4 * 1024;
/**
 * How long the start of the answer body is waited for once the status is in:
 * the status decides the outcome, so a body that trickles in never holds it
 * up to the whole timeout.
 */
const ANSWER_PREFIX_WAIT_MS = 1_000;

export interface PostOutcome {
  /** HTTP status when the receiver answered. */
  status?: number;
  /** The start of the answer body (at most ANSWER_PREFIX_BYTES, as UTF-8 text), when the receiver answered. */
  answer?: string;
  /** Why there was no answer (refused, timed out…). */
  error?: string;
  /** There was no answer within the timeout. */
  timedOut?: boolean;
  elapsedMs: number;
}

export function isSuccess(outcome: PostOutcome): boolean {
  return outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
}

/**
 * The outcome in a few words for a line on stderr: `500`, `302 Found, a
 * redirect (not followed)`, `connection refused`: the API client's words for
 * the same failures (src/core/http-errors.ts).
 */
export function describeOutcome(outcome: PostOutcome): string {
  if (outcome.status === undefined) return outcome.error ?? 'no answer';
  if (outcome.status >= 300 && outcome.status < 400) return redirectWords(outcome.status);
  return String(outcome.status);
}

/** The start of the receiver's answer on one line, for a debug line; undefined when it said nothing. */
export function answerExcerpt(outcome: PostOutcome, max = 200): string | undefined {
  const text = outcome.answer?.replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Headers that describe one connection, not the message (RFC 9110 7.6.1),
 * and the ones the new request sets for itself (Host, Content-Length).
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'expect']);

/** A received request's headers to send on with its body: all but the hop-by-hop ones and those its Connection header names. */
export function forwardableHeaders(headers: readonly (readonly [string, string])[]): [string, string][] {
  const named = new Set(HOP_BY_HOP);
  for (const [name, value] of headers) {
    if (name.toLowerCase() === 'connection') for (const token of value.split(',')) named.add(token.trim().toLowerCase());
  }
  return headers.filter(([name]) => !named.has(name.toLowerCase())).map(([name, value]) => [name, value]);
}

/** A receiver URL given on the command line: http or https, nothing else. */
export function receiverUrl(flag: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be a URL such as http://127.0.0.1:3000/hooks, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${flag} must be an http:// or https:// URL, got "${value}"`);
  }
  return url;
}

export interface PostOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Headers to send as they are (a forwarded delivery's, already without hop-by-hop ones); Content-Type among them wins over `contentType`. */
  headers?: readonly (readonly [string, string])[];
  /** The connections of a command that posts more than once (closed by it); without it the post has a connection of its own. */
  poster?: PlainPoster;
}

/** Keep-alive connections to receivers, one pool per origin, loading the HTTP core on the first post; close() when done. */
export class PlainPoster {
  private readonly pools = new Map<string, Pool>();
  private core?: Promise<typeof import('../core/http.js')>;

  async post<T>(url: URL, request: Omit<ExchangeRequest, 'method' | 'path'>, read: (res: Dispatcher.ResponseData) => Promise<T>): Promise<Exchange<T>> {
    const { exchange, connectionPool } = await (this.core ??= import('../core/http.js'));
    let pool = this.pools.get(url.origin);
    // Posts go one at a time (trigger, replay, forwards in arrival order): one connection is enough.
    if (!pool) this.pools.set(url.origin, (pool = connectionPool(url.origin, { connections: 1, keepAliveTimeout: 4_000 })));
    return exchange(pool, { ...request, method: 'POST', path: `${url.pathname}${url.search}` }, read);
  }

  /** Throws away every connection, and whatever is still on the wire. */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)));
  }
}

export async function postBody(url: URL | string, body: string | Uint8Array, contentType: string | undefined, options: PostOptions = {}): Promise<PostOutcome> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const headers: [string, string][] = (options.headers ?? []).map(([name, value]) => [name, value]);
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  if (!has('user-agent')) headers.push(['user-agent', `email-cli/${CLI_VERSION} (webhooks)`]);
  if (contentType && !has('content-type')) headers.push(['content-type', contentType]);
  const poster = options.poster ?? new PlainPoster();
  try {
    const result = await poster.post(typeof url === 'string' ? new URL(url) : url, { headers: headers.flat(), body, timeoutMs, signal: options.signal }, answerPrefix);
    const elapsedMs = Math.round(performance.now() - started);
    if ('status' in result) return { status: result.status, answer: result.body.toString('utf8'), elapsedMs };
    if (result.failure === 'timeout') return { error: timedOut(timeoutMs), timedOut: true, elapsedMs };
    if (result.failure === 'aborted') return { error: 'interrupted', elapsedMs };
    return { error: describeNetworkError(result.error), elapsedMs };
  } finally {
    if (!options.poster) await poster.close();
  }
}

/**
 * Up to ANSWER_PREFIX_BYTES of the answer body, read for at most
 * ANSWER_PREFIX_WAIT_MS; a body not read to its end is destroyed, which ends
 * the transfer and closes the connection. Never throws: the status is already
 * the outcome.
 */
async function answerPrefix(res: Dispatcher.ResponseData): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  const timer = setTimeout(() => res.body.destroy(), ANSWER_PREFIX_WAIT_MS);
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= ANSWER_PREFIX_BYTES) break;
    }
    ended = size < ANSWER_PREFIX_BYTES;
  } catch {
    // Cut short (the wait, the timeout, a signal, a reset): what was read stands.
  } finally {
    clearTimeout(timer);
    if (!ended) res.body.destroy();
  }
  return Buffer.concat(chunks, size).subarray(0, ANSWER_PREFIX_BYTES);
}
