// Sends a delivery body to a receiver: used by trigger, replay and listen's
// --forward-to. These go to URLs the user names (their own receiver), never to
// the service, so no API key is attached and the service's retry policy does
// not apply: each request is made once and its outcome reported. A redirect
// is an answer, never followed (CLI.md `webhooks listen`: it counts as not
// accepted): following it would send the delivery somewhere the user did not
// name (a 302 turned it into a GET to another host).
//
// Of the receiver's answer only the status counts, and the first few KiB are
// kept for the log; the connection is then dropped (CLI.md "answer size":
// memory stays bounded whatever the receiver sends, issue 19.7: an endless 200
// body was once read until --timeout, 1.1 GB in 10 s).
import { UsageError } from '../core/errors.js';
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
}

export async function postBody(url: URL | string, body: string | Uint8Array, contentType: string | undefined, options: PostOptions = {}): Promise<PostOutcome> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  // Aborted once the start of the answer is read: drops the connection and whatever the receiver still sends.
  const done = new AbortController();
  const signal = AbortSignal.any([done.signal, timeout, ...(options.signal ? [options.signal] : [])]);
  const headers = new Headers();
  for (const [name, value] of options.headers ?? []) headers.append(name, value);
  if (!headers.has('user-agent')) headers.set('user-agent', `email-cli/${CLI_VERSION} (webhooks)`);
  if (contentType && !headers.has('content-type')) headers.set('content-type', contentType);
  try {
    // A copy: fetch may detach the buffer it is given, and the caller keeps
    // this body (to save it; a 307 once crashed on a detached ArrayBuffer).
    const response = await fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : new Uint8Array(body), signal, redirect: 'manual' });
    const answer = await answerPrefix(response, done);
    return { status: response.status, answer, elapsedMs: Math.round(performance.now() - started) };
  } catch (error) {
    const elapsedMs = Math.round(performance.now() - started);
    if (timeout.aborted) return { error: timedOut(timeoutMs), timedOut: true, elapsedMs };
    if (options.signal?.aborted) return { error: 'interrupted', elapsedMs };
    return { error: describeNetworkError(error), elapsedMs };
  }
}

/**
 * Up to ANSWER_PREFIX_BYTES of the answer body, read for at most
 * ANSWER_PREFIX_WAIT_MS; then `done` is aborted, which ends the transfer and
 * closes the connection unless the body had ended by then (a short answer
 * leaves the connection to be used again). Never throws: the status is
 * already the outcome.
 */
async function answerPrefix(response: Response, done: AbortController): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  const reader = response.body?.getReader();
  if (!reader) return '';
  const timer = setTimeout(() => done.abort(), ANSWER_PREFIX_WAIT_MS);
  try {
    while (size < ANSWER_PREFIX_BYTES) {
      const { value, done: end } = await reader.read();
      if (end) {
        ended = true;
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // Cut short (the wait, the timeout, Ctrl-C, a reset): what was read stands.
  } finally {
    clearTimeout(timer);
    if (!ended) done.abort();
  }
  return Buffer.concat(chunks, size).subarray(0, ANSWER_PREFIX_BYTES).toString('utf8');
}
