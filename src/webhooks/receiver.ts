// The HTTP side of `webhooks listen`: accepts POSTed deliveries, answers as
// soon as the body is read and decoded (200, or 400 for a body that is not a
// delivery), and hands each delivery on. Printing, saving and forwarding
// happen after the answer, so a slow terminal or a slow forward target never
// delays the 200 the service waits for (service-spec.md "Events" rule 4: a
// receiver that keeps failing is eventually deactivated).
//
// Limits (CLI.md `webhooks listen`), so nothing a sender does can take the
// memory or the event loop: a body over 10 MiB is answered 413 as soon as it
// crosses the limit (or at once when its Content-Length says so), without
// reading the rest; more than 1,000 events is answered 413 (for XML before the
// document is parsed); and at most a few deliveries are read and parsed at
// once, the others waiting, their bodies unread (TCP holds them back), for a
// place. Memory for bodies is thus at most places × 10 MiB, whatever the
// number of senders.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeDelivery } from './decode.js';
import { MalformedDeliveryError, TooManyEventsError, WEBHOOK_BATCH_LIMIT, type DeliveryFormat, type WebhookDelivery } from './events.js';

/**
 * 1,000 events of a few hundred bytes each are well under 1 MiB; 10 MiB leaves
 * room for big custom fields and bounds what one sender can make us hold.
 */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
/** service-spec.md "Events" rule 3: at most 1000 events per request. */
const DEFAULT_MAX_EVENTS = WEBHOOK_BATCH_LIMIT;
/**
 * Deliveries read and parsed at once. The service sends one request every
 * 10 seconds per webhook, so a handful of places serves many lists; the
 * burst test (50 concurrent deliveries of 1,000 events) is answered in full
 * with them, the others waiting their turn.
 */
export const DEFAULT_MAX_IN_PROGRESS = 4;
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
}

export interface RejectedRequest {
  status: number;
  reason: string;
  method: string;
  remoteAddress?: string;
}

export interface ReceiverOptions {
  port: number;
  host: string;
  maxBodyBytes?: number;
  maxEvents?: number;
  /** Deliveries read and parsed at once; the others wait. */
  maxInProgress?: number;
  /** Called after the 200 has been written. */
  onDelivery(delivery: ReceivedDelivery): void;
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

export interface ReceiverStats {
  /** Deliveries being read or parsed. */
  inProgress: number;
  /** Deliveries waiting for a place, their bodies not read yet. */
  waiting: number;
  peakInProgress: number;
  /** Bytes of bodies held by deliveries in progress. */
  bufferedBytes: number;
  peakBufferedBytes: number;
}

/** Places for deliveries in progress, given in arrival order. */
class Places {
  private readonly queue: { grant: () => void }[] = [];
  inProgress = 0;
  peak = 0;
  constructor(private readonly max: number) {}
  get waiting(): number {
    return this.queue.length;
  }
  /** Resolves true when a place is taken, false when the request closed while waiting. */
  take(req: IncomingMessage): Promise<boolean> {
    if (this.inProgress < this.max) {
      this.occupy();
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const entry = {
        grant: () => {
          req.off('close', gone);
          this.occupy();
          resolve(true);
        },
      };
      const gone = () => {
        this.queue.splice(this.queue.indexOf(entry), 1);
        resolve(false);
      };
      req.once('close', gone);
      this.queue.push(entry);
    });
  }
  give(): void {
    this.inProgress--;
    this.queue.shift()?.grant();
  }
  private occupy(): void {
    this.inProgress++;
    this.peak = Math.max(this.peak, this.inProgress);
  }
}

export async function startDeliveryReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  const places = new Places(options.maxInProgress ?? DEFAULT_MAX_IN_PROGRESS);
  const memory = { buffered: 0, peak: 0 };
  const lingering = new Set<() => void>();
  const now = options.now ?? (() => new Date());
  const tooLarge = `body larger than ${describeBytes(maxBodyBytes)}`;
  let seq = 0;

  const server: Server = createServer((req, res) => {
    const remoteAddress = req.socket.remoteAddress;
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain; charset=utf-8' }).end('POST webhook deliveries here\n');
      req.resume();
      return;
    }
    void handlePost(req, res, remoteAddress);
  });
  const handlePost = async (req: IncomingMessage, res: ServerResponse, remoteAddress: string | undefined) => {
    const method = req.method ?? 'POST';
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    // Announced too large: refused before a byte of the body is read, without waiting for a place.
    if (declared > maxBodyBytes) return refuseAndClose(req, res, options, { status: 413, reason: tooLarge, method, remoteAddress }, lingering);
    if (!(await places.take(req))) return;
    try {
      let body: Buffer | undefined;
      try {
        body = await readBody(req, maxBodyBytes, memory);
      } catch {
        // The sender went away before the body was complete: nothing to answer or print.
        res.destroy();
        return;
      }
      if (body === undefined) return refuseAndClose(req, res, options, { status: 413, reason: tooLarge, method, remoteAddress }, lingering);
      const contentType = req.headers['content-type'];
      let decoded;
      try {
        decoded = decodeDelivery(body, contentType, { maxEvents });
      } catch (error) {
        if (error instanceof TooManyEventsError) return reject(res, options, { status: 413, reason: error.message, method, remoteAddress });
        const reason = error instanceof MalformedDeliveryError ? error.message : `could not decode the body: ${(error as Error).message}`;
        return reject(res, options, { status: 400, reason, method, remoteAddress });
      } finally {
        memory.buffered -= body.length;
      }
      res.writeHead(200, { 'content-length': '0' }).end();
      options.onDelivery({ seq: ++seq, receivedAt: now(), body, contentType, headers: pairs(req.rawHeaders), format: decoded.format, delivery: decoded.delivery, remoteAddress });
    } finally {
      places.give();
    }
  };
  server.on('clientError', (_err, socket) => socket.destroy());

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
    stats: () => ({ inProgress: places.inProgress, waiting: places.waiting, peakInProgress: places.peak, bufferedBytes: memory.buffered, peakBufferedBytes: memory.peak }),
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

function reject(res: ServerResponse, options: ReceiverOptions, rejected: RejectedRequest): void {
  res.writeHead(rejected.status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${rejected.reason}\n`);
  options.onRejected(rejected);
}

/**
 * Answers a request whose body is not wanted (too large), then closes the
 * connection. The rest of the body is never kept: for a short while it is
 * read and dropped, so a sender still writing sees this answer rather than a
 * reset connection (as servers do for an early answer), then the connection
 * is closed whether or not the sender has stopped.
 */
function refuseAndClose(req: IncomingMessage, res: ServerResponse, options: ReceiverOptions, rejected: RejectedRequest, lingering: Set<() => void>): void {
  const text = `${rejected.reason}\n`;
  res.writeHead(rejected.status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), connection: 'close' });
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

/**
 * The whole body, or undefined as soon as it crosses `maxBytes` (reading
 * stops there and what was read is dropped). Bytes held are counted in `memory`;
 * the caller subtracts a returned body's length once it is done with it.
 */
function readBody(req: IncomingMessage, maxBytes: number, memory: { buffered: number; peak: number }): Promise<Buffer | undefined> {
  return new Promise((resolve, rejectRead) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > maxBytes) {
        stop();
        memory.buffered -= size;
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      size += chunk.length;
      chunks.push(chunk);
      memory.buffered += chunk.length;
      memory.peak = Math.max(memory.peak, memory.buffered);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onFail = (error?: Error) => {
      stop();
      memory.buffered -= size;
      rejectRead(error ?? new Error('aborted'));
    };
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFail);
      req.off('aborted', onFail);
      req.off('close', onClose);
    };
    const onClose = () => onFail(new Error('closed'));
    req.on('data', onData);
    req.on('close', onClose);
    req.on('end', onEnd);
    req.on('error', onFail);
    req.on('aborted', onFail);
  });
}

function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

function describeBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
