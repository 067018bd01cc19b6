// The HTTP side of `webhooks listen`. 200 means delivered (saved, or taken by a sink); what
// cannot be kept is answered 500 or 503 so the service sends it again, rather than trusted to
// memory. The bounds of CLI.md `webhooks listen` (receiver-limits.ts, body-reader.ts) keep any
// sender or sink from taking the memory or the event loop.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readBody, type ReadResult } from './body-reader.js';
import { decodeDelivery } from './decode.js';
import { MalformedDeliveryError, OversizedDeliveryError, type DeliveryFormat, type WebhookDelivery } from './events.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_EVENTS, ReceiverLimits, type LimitOptions, type ReceiverStats } from './receiver-limits.js';

export { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_HELD_BYTES, DEFAULT_MAX_IN_PROGRESS, DEFAULT_MAX_READING_BYTES, type ReceiverStats } from './receiver-limits.js';

export const DEFAULT_HEADERS_TIMEOUT_MS = 5_000;
/** The service sends one request every 10 s per webhook: a slower delivery falls behind anyway. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 5_000;
/** Node's default check interval would let the header and request deadlines run late. */
const DEADLINE_CHECK_INTERVAL_MS = 500;
/** The service's own pace (service-spec.md "Events" rule 3). */
const BUSY_HEADERS = { 'retry-after': '10' };
export const NOT_KEPT = 'the delivery could not be saved; send it again later';
export const NOT_TAKEN = 'not delivered: nothing took the delivery in time (standard output not read, the forward target not answering); send it again later';
const CLOSE_GRACE_MS = 5_000;
const REFUSED_LINGER_MS = 2_000;

export interface ReceivedDelivery {
  seq: number;
  receivedAt: Date;
  body: Buffer;
  contentType?: string;
  headers: [string, string][];
  format: DeliveryFormat;
  delivery: WebhookDelivery;
  remoteAddress?: string;
  /** Until called, the delivery's bytes count against the bound (past it, 503). Idempotent. */
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
  /** Its failure is answered 500; the answer names no local path to the sender. */
  persist?(delivery: Omit<ReceivedDelivery, 'done'>): Promise<void>;
  /** Resolves false when no sink took it: 503, so the service sends it again. */
  onDelivery(delivery: ReceivedDelivery): void | Promise<boolean>;
  onRejected(rejected: RejectedRequest): void;
  now?: () => Date;
}

export interface RunningReceiver {
  url: string;
  port: number;
  stats(): ReceiverStats;
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
    if (declared > maxBodyBytes) return refuseAndClose(req, res, options, { status: 413, reason: tooLarge, method, remoteAddress }, lingering);
    // Announced larger than the room left: refused now, as it would be once read.
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
 * The unwanted rest of the body is read and dropped for a short while, so a sender still
 * writing sees the answer rather than a reset connection; then the connection closes.
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
