// The HTTP side of `webhooks listen`: accepts POSTed deliveries, reads and
// decodes each (400 for a body that is not a delivery), saves it where asked
// (--save: a delivery that could not be saved is answered 500 and the
// service sends it again), and hands it on. 200 means delivered: saved, or
// taken by a sink (printed, forwarded), which the consumer says; one no sink
// took in time is answered 503, so the service sends it again rather than
// trust a copy held only in memory (service-spec.md "Events" rule 4: a
// receiver that keeps failing is deactivated only after a week).
//
// Limits (CLI.md `webhooks listen`), so nothing a sender or a sink does can
// take the memory or the event loop:
// - a body over 10 MiB is answered 413 as soon as it crosses the limit (or at
//   once when its Content-Length says so), without reading the rest; more than
//   1,000 events is answered 413 (for XML before the document is parsed);
// - bodies are read as they come, all senders together holding at most
//   40 MiB (the oldest body in progress may always go on, so bodies paused
//   for room never wait on each other); a body that would cross it waits,
//   unread (TCP holds it back), until room is made;
// - at most a few whole bodies are parsed at once; a place is taken only
//   once a body has arrived, so a slow upload never holds one (issue 19.4);
// - a sender has 5 s for its headers, 10 s for its whole request and may
//   leave its body silent for 5 s at most: past that it gets 408 and its
//   connection is closed (Node's own request timeout is 300 s);
// - deliveries being saved, or answered 200 but not yet done with (printed,
//   forwarded: the consumer calls done()) hold at most 32 MiB of bodies;
//   beyond that the answer is 503 with Retry-After, never a 200 for what
//   cannot be kept (200 means delivered; issue 19.2).
// The bounds are in receiver-limits.ts, the reading of a body under its
// budget in body-reader.ts; this file is the server and its answers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readBody, type ReadResult } from './body-reader.js';
import { decodeDelivery } from './decode.js';
import { MalformedDeliveryError, OversizedDeliveryError, type DeliveryFormat, type WebhookDelivery } from './events.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_EVENTS, ReceiverLimits, type LimitOptions, type ReceiverStats } from './receiver-limits.js';

export { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_HELD_BYTES, DEFAULT_MAX_IN_PROGRESS, DEFAULT_MAX_READING_BYTES, type ReceiverStats } from './receiver-limits.js';

/** Time for a request's headers: a sender has them ready when it connects. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 5_000;
/**
 * Time for a whole request, body included: 10 MiB at 1 MB/s. The service sends
 * one request every 10 s per webhook (service-spec.md "Events" rule 3): a
 * delivery slower than that falls behind the next one anyway.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/** Time a body may stay silent: a sender that stops sending holds a connection for this long at most. */
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 5_000;
/** How often Node checks the header and request deadlines (its default, 30 s, would let them run 30 s late). */
const DEADLINE_CHECK_INTERVAL_MS = 500;
/** Retry-After of a 503: the service's own pace (service-spec.md "Events" rule 3). */
const BUSY_HEADERS = { 'retry-after': '10' };
/** The answer to a delivery that could not be saved: the service sends it again. */
export const NOT_KEPT = 'the delivery could not be saved; send it again later';
/** The answer to a delivery no sink took in time: the service sends it again. */
export const NOT_TAKEN = 'not delivered: nothing took the delivery in time (standard output not read, the forward target not answering); send it again later';
/** How long close() lets requests in progress finish before cutting them. */
const CLOSE_GRACE_MS = 5_000;
/** How long a refused sender is given to read the answer and stop sending before its connection is closed. */
const REFUSED_LINGER_MS = 2_000;

export interface ReceivedDelivery {
  /** Arrival order, from 1. */
  seq: number;
  receivedAt: Date;
  /** The body exactly as it arrived. */
  body: Buffer;
  contentType?: string;
  /** The request's headers as they arrived: name, value pairs in order (req.rawHeaders). */
  headers: [string, string][];
  format: DeliveryFormat;
  delivery: WebhookDelivery;
  remoteAddress?: string;
  /**
   * Says the delivery has been printed, saved and forwarded (or given up on):
   * its bytes no longer count against the receiver's bound. Until then they
   * do, and past the bound the receiver answers 503. A second call does nothing.
   */
  done(): void;
}

export interface RejectedRequest {
  status: number;
  reason: string;
  method: string;
  remoteAddress?: string;
}

export interface ReceiverOptions extends LimitOptions {
  port: number;
  host: string;
  maxBodyBytes?: number;
  maxEvents?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  bodyIdleTimeoutMs?: number;
  /**
   * Makes the delivery durable before it is answered (--save). Its failure is
   * answered 500 and the delivery is not handed on; the consumer says why
   * (the answer names no local path to the sender).
   */
  persist?(delivery: Omit<ReceivedDelivery, 'done'>): Promise<void>;
  /**
   * Hands a delivery on; the consumer calls delivery.done() when it is
   * finished with it. The answer waits for what it resolves to: true (or
   * nothing) is 200, false is 503 (no sink took it: the service sends it
   * again; the consumer has let it go).
   */
  onDelivery(delivery: ReceivedDelivery): void | Promise<boolean>;
  onRejected(rejected: RejectedRequest): void;
  now?: () => Date;
}

export interface RunningReceiver {
  url: string;
  port: number;
  /** What the receiver holds now, and the most it has held. */
  stats(): ReceiverStats;
  /** Stops accepting connections and waits for requests in progress. */
  close(): Promise<void>;
}

export async function startDeliveryReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // Node refuses a header deadline later than the request's.
  const headersTimeoutMs = Math.min(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeoutMs);
  const bodyIdleTimeoutMs = options.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS;
  const limits = new ReceiverLimits(options);
  const lingering = new Set<() => void>();
  const now = options.now ?? (() => new Date());
  const tooLarge = `body larger than ${describeBytes(maxBodyBytes)}`;
  /** The request each connection is reading, to answer and name it when Node's deadline cuts it. */
  const current = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();
  let seq = 0;
  const busy = (method: string, remoteAddress: string | undefined): RejectedRequest => ({ status: 503, reason: limits.busyReason(), method, remoteAddress });

  const server: Server = createServer({ headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: DEADLINE_CHECK_INTERVAL_MS }, (req, res) => {
    const remoteAddress = req.socket.remoteAddress;
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain; charset=utf-8' }).end('POST webhook deliveries here\n');
      req.resume();
      return;
    }
    current.set(req.socket, { req, res });
    void handlePost(req, res, remoteAddress);
  });
  const handlePost = async (req: IncomingMessage, res: ServerResponse, remoteAddress: string | undefined) => {
    const method = req.method ?? 'POST';
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    // Announced too large: refused before a byte of the body is read.
    if (declared > maxBodyBytes) return refuseAndClose(req, res, options, { status: 413, reason: tooLarge, method, remoteAddress }, lingering);
    // Announced larger than the room left: refused before it is read, as it would be once read.
    if (limits.wouldOverflow(declared)) return refuseAndClose(req, res, options, busy(method, remoteAddress), lingering, BUSY_HEADERS);
    let read: ReadResult;
    try {
      read = await readBody(req, maxBodyBytes, bodyIdleTimeoutMs, limits.budget);
    } catch {
      // The sender went away, or Node's deadline cut it (answered 408 in clientError): nothing to answer or print.
      res.destroy();
      return;
    }
    if (read === 'too large') return refuseAndClose(req, res, options, { status: 413, reason: tooLarge, method, remoteAddress }, lingering);
    if (read === 'idle') {
      const reason = `no byte of the body for ${seconds(bodyIdleTimeoutMs)} s`;
      return refuseAndClose(req, res, options, { status: 408, reason, method, remoteAddress }, lingering);
    }
    const { body, release: giveBackRead } = read;
    current.delete(req.socket);
    // A place is taken only now that the whole body is here: a slow upload never holds one.
    const place = await limits.takePlace(res);
    if (!place) {
      giveBackRead();
      return;
    }
    try {
      const contentType = req.headers['content-type'];
      let decoded;
      try {
        decoded = decodeDelivery(body, contentType, { maxEvents });
      } catch (error) {
        if (error instanceof OversizedDeliveryError) return reject(res, options, { status: 413, reason: error.message, method, remoteAddress });
        const reason = error instanceof MalformedDeliveryError ? error.message : `could not decode the body: ${(error as Error).message}`;
        return reject(res, options, { status: 400, reason, method, remoteAddress });
      } finally {
        giveBackRead();
      }
      // 200 means delivered: what cannot be kept is refused so the service sends it again later.
      const done = limits.hold(body.length);
      if (!done) return reject(res, options, busy(method, remoteAddress), BUSY_HEADERS);
      // The parse is over: a slow disk must not hold a place other bodies wait for.
      place();
      const received = { seq: ++seq, receivedAt: now(), body, contentType, headers: pairs(req.rawHeaders), format: decoded.format, delivery: decoded.delivery, remoteAddress };
      if (options.persist) {
        try {
          await options.persist(received);
        } catch {
          done();
          return reject(res, options, { status: 500, reason: NOT_KEPT, method, remoteAddress });
        }
      }
      // 200 means delivered (saved, written to a sink that took it, or forwarded), never held in memory only.
      if ((await options.onDelivery({ ...received, done })) === false) {
        return reject(res, options, { status: 503, reason: NOT_TAKEN, method, remoteAddress }, BUSY_HEADERS);
      }
      res.writeHead(200, { 'content-length': '0' }).end();
    } finally {
      place();
    }
  };
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Node's header or request deadline passed (server.headersTimeout, requestTimeout): 408, then the connection is closed.
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      const reason = `request not received in time (headers within ${seconds(headersTimeoutMs)} s, all of it within ${seconds(requestTimeoutMs)} s)`;
      const cut = current.get(socket);
      if (socket.writable && !cut?.res.headersSent) socket.write(`HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(reason) + 1}\r\nconnection: close\r\n\r\n${reason}\n`);
      options.onRejected({ status: 408, reason, method: cut?.req.method ?? 'request', remoteAddress: socket.remoteAddress });
    }
    socket.destroy();
  });

  await new Promise<void>((resolve, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(options.port, options.host, () => {
      server.off('error', rejectListen);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: `http://${host}:${port}`,
    port,
    stats: () => limits.stats(),
    close: () =>
      new Promise<void>((resolve) => {
        const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        for (const finish of [...lingering]) finish();
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        // Keep-alive connections with no request in progress would hold close() open.
        server.closeIdleConnections();
      }),
  };
}

function reject(res: ServerResponse, options: ReceiverOptions, rejected: RejectedRequest, headers: Record<string, string> = {}): void {
  res.writeHead(rejected.status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(`${rejected.reason}\n`);
  options.onRejected(rejected);
}

/**
 * Answers a request whose body is not wanted (too large, too slow), then
 * closes the connection. The rest of the body is never kept: for a short
 * while it is read and dropped, so a sender still writing sees this answer
 * rather than a reset connection (as servers do for an early answer), then
 * the connection is closed whether or not the sender has stopped.
 */
function refuseAndClose(req: IncomingMessage, res: ServerResponse, options: ReceiverOptions, rejected: RejectedRequest, lingering: Set<() => void>, headers: Record<string, string> = {}): void {
  const text = `${rejected.reason}\n`;
  res.writeHead(rejected.status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), connection: 'close', ...headers });
  // The whole answer is out now; ending the response (which closes the connection) waits for the sender.
  res.write(text);
  options.onRejected(rejected);
  const finish = () => {
    clearTimeout(timer);
    lingering.delete(finish);
    if (!res.writableEnded) res.end();
  };
  const timer = setTimeout(finish, REFUSED_LINGER_MS);
  lingering.add(finish);
  req.on('data', discard);
  req.once('end', finish);
  req.once('close', finish);
  req.resume();
}

function discard(): void {}

function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

function seconds(ms: number): string {
  return String(ms / 1000);
}

function describeBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
