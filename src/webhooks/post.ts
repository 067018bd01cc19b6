// Sends a delivery body to a receiver: used by trigger, replay and listen's
// --forward-to. These go to URLs the user names (their own receiver), never to
// the service, so no API key is attached and the service's retry policy does
// not apply: each request is made once and its outcome reported.
import { UsageError } from '../core/errors.js';
import { CLI_VERSION } from '../core/version.js';

export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

export interface PostOutcome {
  /** HTTP status when the receiver answered. */
  status?: number;
  /** Why there was no answer (refused, timed out…). */
  error?: string;
  elapsedMs: number;
}

export function isSuccess(outcome: PostOutcome): boolean {
  return outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
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
}

export async function postBody(url: URL | string, body: string | Uint8Array, contentType: string | undefined, options: PostOptions = {}): Promise<PostOutcome> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const headers: Record<string, string> = { 'user-agent': `email-cli/${CLI_VERSION} (webhooks)` };
  if (contentType) headers['content-type'] = contentType;
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal });
    await response.arrayBuffer().catch(() => undefined);
    return { status: response.status, elapsedMs: Math.round(performance.now() - started) };
  } catch (error) {
    const elapsedMs = Math.round(performance.now() - started);
    if (timeout.aborted) return { error: `no answer within ${timeoutMs / 1000}s`, elapsedMs };
    if (options.signal?.aborted) return { error: 'interrupted', elapsedMs };
    return { error: describeFetchError(error), elapsedMs };
  }
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
      return 'host not found';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection reset by the receiver';
    default:
      return cause?.message ?? (error as Error).message ?? String(error);
  }
}
