// A POST to a URL the user names (a webhook receiver), not to the service:
// through the one HTTP core's undici (src/core/undici-lite.ts), loaded on the
// first post, with the API client's connect timeout, its `localhost` lookup
// and its redirect rule (a 3xx is an answer, never followed). fetch is not
// used: it refuses ports on its "bad port" list (6000, 6665-6669, 10080…),
// which curl and the API client reach. No key, no retries: each post is made
// once and its outcome reported.
//
// Only a prefix of the answer body is read, for at most a short wait; the
// transfer is then cut, which drops the connection, so memory stays bounded
// whatever the receiver sends (CLI.md "answer size"). An answer read to its
// end leaves the connection to be used again.
import type { Dispatcher, Pool as PoolType } from 'undici';
import { loopbackAwareLookup } from './loopback.js';

/** The API client's connect timeout (src/core/http.ts): a receiver that never accepts fails as the service would. */
const CONNECT_TIMEOUT_MS = 10_000;

export interface PlainPostRequest {
  /** Headers as sent, in order (a name may repeat). */
  headers: readonly (readonly [string, string])[];
  body: string | Uint8Array;
  /** From the start of the request to the end of what is read of the answer. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes of the answer body read at most. */
  answerBytes: number;
  /** How long the start of the answer body is waited for once the status is in. */
  answerWaitMs: number;
}

/** The receiver answered (`status`, the start of its body), or did not: in time, before a signal, or at all (`error`). */
export type PlainPostResult =
  | { status: number; answer: Buffer }
  | { failure: 'timeout' }
  | { failure: 'aborted' }
  | { failure: 'network'; error: unknown };

/** Posts to receivers over keep-alive connections, one pool per origin; close() when done. */
export class PlainPoster {
  private readonly pools = new Map<string, PoolType>();
  private undici?: Promise<typeof import('./undici-lite.js')>;

  async post(url: URL, request: PlainPostRequest): Promise<PlainPostResult> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error('timeout')), request.timeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout.signal, request.signal]) : timeout.signal;
    let undici: typeof import('./undici-lite.js') | undefined;
    try {
      undici = await (this.undici ??= import('./undici-lite.js'));
      const res = await undici.poolRequest(this.pool(undici, url.origin), {
        method: 'POST',
        path: `${url.pathname}${url.search}`,
        headers: request.headers.flat(),
        body: request.body,
        signal,
        headersTimeout: request.timeoutMs,
        bodyTimeout: request.timeoutMs,
      });
      return { status: res.statusCode, answer: await answerPrefix(res, request.answerBytes, request.answerWaitMs) };
    } catch (error) {
      if (timeout.signal.aborted || (undici && isUndiciTimeout(undici.errors, error))) return { failure: 'timeout' };
      if (request.signal?.aborted) return { failure: 'aborted' };
      return { failure: 'network', error };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Throws away every connection, and whatever is still on the wire. */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)));
  }

  private pool(undici: typeof import('./undici-lite.js'), origin: string): PoolType {
    let pool = this.pools.get(origin);
    if (!pool) {
      // Posts go one at a time (trigger, replay, forwards in arrival order): one connection is enough.
      pool = new undici.Pool(origin, { connections: 1, connect: { timeout: CONNECT_TIMEOUT_MS, lookup: loopbackAwareLookup }, keepAliveTimeout: 4_000 });
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

/**
 * Up to `limit` bytes of the answer body, read for at most `waitMs`; a body
 * not read to its end is destroyed, which ends the transfer and closes the
 * connection. Never throws: the status is already the outcome.
 */
async function answerPrefix(res: Dispatcher.ResponseData, limit: number, waitMs: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  const timer = setTimeout(() => res.body.destroy(), waitMs);
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
    ended = size < limit;
  } catch {
    // Cut short (the wait, the timeout, a signal, a reset): what was read stands.
  } finally {
    clearTimeout(timer);
    if (!ended) res.body.destroy();
  }
  return Buffer.concat(chunks, size).subarray(0, limit);
}

function isUndiciTimeout(errors: typeof import('./undici-lite.js')['errors'], err: unknown): boolean {
  return err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError || err instanceof errors.ConnectTimeoutError;
}
