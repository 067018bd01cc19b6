// Posts a delivery to a receiver the user names (trigger, replay, --forward-to): no API key, no
// retry, each outcome reported. A redirect is never followed: it would send the delivery where
// the user did not say (CLI.md `webhooks listen`). Only the status counts; a few KiB of the
// answer are kept for the log, so memory stays bounded (CLI.md "answer size").
import type { Dispatcher, Pool } from 'undici';
import { UsageError } from '../core/errors.js';
import type { Exchange, ExchangeRequest } from '../core/http.js';
import { describeNetworkError, redirectWords, timedOut } from '../core/http-errors.js';
import { CLI_VERSION } from '../core/version.js';

const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
export const ANSWER_PREFIX_BYTES = 4 * 1024;
/** The status decides the outcome, so a body that trickles in never holds it up to the whole timeout. */
const ANSWER_PREFIX_WAIT_MS = 1_000;

export interface PostOutcome {
  status?: number;
  answer?: string;
  error?: string;
  timedOut?: boolean;
  elapsedMs: number;
}

export function isSuccess(outcome: PostOutcome): boolean {
  return outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
}

/** The API client's words for the same failures (http-errors.ts). */
export function describeOutcome(outcome: PostOutcome): string {
  if (outcome.status === undefined) return outcome.error ?? 'no answer';
  if (outcome.status >= 300 && outcome.status < 400) return redirectWords(outcome.status);
  return String(outcome.status);
}

export function answerExcerpt(outcome: PostOutcome, max = 200): string | undefined {
  const text = outcome.answer?.replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Hop-by-hop headers (RFC 9110 7.6.1), and those the new request sets for itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'expect']);

export function forwardableHeaders(headers: readonly (readonly [string, string])[]): [string, string][] {
  const named = new Set(HOP_BY_HOP);
  for (const [name, value] of headers) {
    if (name.toLowerCase() === 'connection') for (const token of value.split(',')) named.add(token.trim().toLowerCase());
  }
  return headers.filter(([name]) => !named.has(name.toLowerCase())).map(([name, value]) => [name, value]);
}

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
  /** Content-Type among them wins over `contentType`. */
  headers?: readonly (readonly [string, string])[];
  /** Without it the post has a connection of its own. */
  poster?: PlainPoster;
}

/** One pool per origin; close() when done. */
export class PlainPoster {
  private readonly pools = new Map<string, Pool>();
  private core?: Promise<typeof import('../core/http.js')>;

  async post<T>(url: URL, request: Omit<ExchangeRequest, 'method' | 'path'>, read: (res: Dispatcher.ResponseData) => Promise<T>): Promise<Exchange<T>> {
    const { exchange, connectionPool } = await (this.core ??= import('../core/http.js'));
    let pool = this.pools.get(url.origin);
    // Posts go one at a time, so one connection is enough.
    if (!pool) this.pools.set(url.origin, (pool = connectionPool(url.origin, { connections: 1, keepAliveTimeout: 4_000 })));
    return exchange(pool, { ...request, method: 'POST', path: `${url.pathname}${url.search}` }, read);
  }

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

/** A body not read to its end is destroyed, closing the connection. Never throws: the status is the outcome. */
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
