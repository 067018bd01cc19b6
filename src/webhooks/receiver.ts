// The HTTP side of `webhooks listen`: accepts POSTed deliveries, answers as
// soon as the body is read and decoded (200, or 400 for a body that is not a
// delivery), and hands each delivery on. Printing, saving and forwarding
// happen after the answer, so a slow terminal or a slow forward target never
// delays the 200 the service waits for (service-spec.md "Events" rule 4: a
// receiver that keeps failing is eventually deactivated).
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
// - deliveries answered 200 but not yet done with (printed, saved,
//   forwarded: the consumer calls done()) hold at most 32 MiB of bodies;
//   beyond that the answer is 503 with Retry-After, never a 200 for what
//   cannot be kept (200 means delivered; issue 19.2).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { decodeDelivery } from './decode.js';
import { MalformedDeliveryError, OversizedDeliveryError, WEBHOOK_BATCH_LIMIT, type DeliveryFormat, type WebhookDelivery } from './events.js';

/**
 * 1,000 events of a few hundred bytes each are well under 1 MiB; 10 MiB leaves
 * room for big custom fields and bounds what one sender can make us hold.
 */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
/** service-spec.md "Events" rule 3: at most 1000 events per request. */
const DEFAULT_MAX_EVENTS = WEBHOOK_BATCH_LIMIT;
/**
 * Whole bodies parsed at once. The service sends one request every 10
 * seconds per webhook, so a handful of places serves many lists; the burst
 * test (50 concurrent deliveries of 1,000 events) is answered in full with
 * them, the others waiting their turn.
 */
export const DEFAULT_MAX_IN_PROGRESS = 4;
/**
 * Bytes of bodies read and not yet parsed, all senders together: four
 * deliveries of the largest size, what the places held before bodies were
 * read outside them.
 */
export const DEFAULT_MAX_READING_BYTES = 4 * DEFAULT_MAX_BODY_BYTES;
/**
 * Bytes of deliveries answered 200 and not yet done with (printed, saved,
 * forwarded). Three deliveries of the largest size, or about a hundred of
 * 1,000 ordinary events (~300 KB each): ten minutes of one list's deliveries
 * at the service's pace of one every 10 s, enough for a sink that pauses, not
 * for one that has stopped. Their decoded events take about as much again,
 * so with the bodies being read the process stays near 200 MB at worst.
 */
export const DEFAULT_MAX_HELD_BYTES = 32 * 1024 * 1024;
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

export interface ReceiverOptions {
  port: number;
  host: string;
  maxBodyBytes?: number;
  maxEvents?: number;
  /** Whole bodies parsed at once; the others wait. */
  maxInProgress?: number;
  /** Bytes of bodies read and not yet parsed, all senders together. */
  maxReadingBytes?: number;
  /** Bytes of deliveries answered 200 and not yet done(); past it, 503. */
  maxHeldBytes?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  bodyIdleTimeoutMs?: number;
  /** Called after the 200 has been written; the consumer calls delivery.done() when it is finished with it. */
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
  /** Requests whose body is being read. */
  reading: number;
  /** Deliveries being parsed. */
  inProgress: number;
  /** Whole bodies waiting for a place to be parsed. */
  waiting: number;
  peakInProgress: number;
  /** Bytes of bodies read and not yet parsed. */
  bufferedBytes: number;
  peakBufferedBytes: number;
  /** Bytes of deliveries answered 200 and not yet done with. */
  heldBytes: number;
  peakHeldBytes: number;
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
  /** Resolves true when a place is taken, false when the connection closed while waiting (the answer can no longer be sent). */
  take(res: ServerResponse): Promise<boolean> {
    if (this.inProgress < this.max) {
      this.occupy();
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const entry = {
        grant: () => {
          res.off('close', gone);
          this.occupy();
          resolve(true);
        },
      };
      const gone = () => {
        this.queue.splice(this.queue.indexOf(entry), 1);
        resolve(false);
      };
      res.once('close', gone);
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

/** One body being read: its place in the budget's arrival order, and how it resumes when room is made. */
interface Reader {
  resume(): void;
}

/**
 * The bytes of bodies read and not yet parsed, all senders together. A
 * reader that would cross the budget pauses (its socket is no longer read,
 * so TCP holds the sender back) until bytes are given back; the oldest reader
 * still reading may always go on, so paused readers can never all wait on
 * each other. Memory is thus at most the budget and one body beyond it.
 * A paused body's request deadline keeps running: room comes back as the
 * bodies ahead of it end, each within its own deadline.
 */
class ReadingBudget {
  buffered = 0;
  peak = 0;
  /** Readers still reading, in arrival order. */
  private readonly readers = new Set<Reader>();
  private readonly paused: Reader[] = [];
  constructor(private readonly max: number) {}
  get reading(): number {
    return this.readers.size;
  }
  join(reader: Reader): void {
    this.readers.add(reader);
  }
  /** Whether `reader` may hold `bytes` more now; when not, it pauses and is resumed later. */
  take(reader: Reader, bytes: number): boolean {
    if (this.buffered + bytes > this.max && !this.isOldest(reader)) {
      this.paused.push(reader);
      return false;
    }
    this.add(bytes);
    return true;
  }
  /** What a resumed reader had in hand when it paused: counted whatever the budget says. */
  add(bytes: number): void {
    this.buffered += bytes;
    this.peak = Math.max(this.peak, this.buffered);
  }
  /** The reader is done reading (its body whole, refused or gone). */
  leave(reader: Reader): void {
    this.readers.delete(reader);
    const i = this.paused.indexOf(reader);
    if (i >= 0) this.paused.splice(i, 1);
    this.wake();
  }
  give(bytes: number): void {
    this.buffered -= bytes;
    this.wake();
  }
  private isOldest(reader: Reader): boolean {
    return this.readers.values().next().value === reader;
  }
  /** Resumes paused readers in arrival order while there is room, and the oldest reader always. */
  private wake(): void {
    while (this.paused.length && (this.buffered < this.max || this.isOldest(this.paused[0]!))) this.paused.shift()!.resume();
    const oldest = this.readers.values().next().value;
    const i = oldest ? this.paused.indexOf(oldest) : -1;
    if (i >= 0) this.paused.splice(i, 1)[0]!.resume();
  }
}

export async function startDeliveryReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  const maxHeldBytes = options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // Node refuses a header deadline later than the request's.
  const headersTimeoutMs = Math.min(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeoutMs);
  const bodyIdleTimeoutMs = options.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS;
  const places = new Places(options.maxInProgress ?? DEFAULT_MAX_IN_PROGRESS);
  const budget = new ReadingBudget(options.maxReadingBytes ?? DEFAULT_MAX_READING_BYTES);
  const held = { bytes: 0, peak: 0 };
  const lingering = new Set<() => void>();
  const now = options.now ?? (() => new Date());
  const tooLarge = `body larger than ${describeBytes(maxBodyBytes)}`;
  /** The request each connection is reading, to answer and name it when Node's deadline cuts it. */
  const current = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();
  let seq = 0;
  /** One delivery is always taken when nothing is held, however large the bound. */
  const wouldOverflow = (bytes: number) => held.bytes > 0 && held.bytes + bytes > maxHeldBytes;
  const busy = (method: string, remoteAddress: string | undefined): RejectedRequest => ({
    status: 503,
    reason: `busy: holding ${describeSize(held.bytes)} of deliveries not yet handed on (at most ${describeSize(maxHeldBytes)}); send it again later`,
    method,
    remoteAddress,
  });

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
    if (wouldOverflow(declared)) return refuseAndClose(req, res, options, busy(method, remoteAddress), lingering, BUSY_HEADERS);
    let read: ReadResult;
    try {
      read = await readBody(req, maxBodyBytes, bodyIdleTimeoutMs, budget);
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
    const body = read;
    current.delete(req.socket);
    // A place is taken only now that the whole body is here: a slow upload never holds one.
    if (!(await places.take(res))) {
      budget.give(body.length);
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
        budget.give(body.length);
      }
      // 200 means delivered: what cannot be kept is refused so the service sends it again later.
      // One delivery is always taken when nothing is held, however large the bound.
      if (wouldOverflow(body.length)) return reject(res, options, busy(method, remoteAddress), BUSY_HEADERS);
      held.bytes += body.length;
      held.peak = Math.max(held.peak, held.bytes);
      let finished = false;
      const done = () => {
        if (finished) return;
        finished = true;
        held.bytes -= body.length;
      };
      res.writeHead(200, { 'content-length': '0' }).end();
      options.onDelivery({ seq: ++seq, receivedAt: now(), body, contentType, headers: pairs(req.rawHeaders), format: decoded.format, delivery: decoded.delivery, remoteAddress, done });
    } finally {
      places.give();
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
    stats: () => ({
      reading: budget.reading,
      inProgress: places.inProgress,
      waiting: places.waiting,
      peakInProgress: places.peak,
      bufferedBytes: budget.buffered,
      peakBufferedBytes: budget.peak,
      heldBytes: held.bytes,
      peakHeldBytes: held.peak,
    }),
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

type ReadResult = Buffer | 'too large' | 'idle';

/**
 * The whole body; 'too large' as soon as it crosses `maxBytes`, 'idle' when
 * no byte came for `idleMs` (reading stops there and what was read is
 * dropped). Bytes read are counted in `budget`, and reading pauses while the
 * budget has no room (the idle clock stopped meanwhile: the wait is ours);
 * the caller gives a returned body's bytes back once it is done with it.
 * Rejects when the request closes before its end.
 */
function readBody(req: IncomingMessage, maxBytes: number, idleMs: number, budget: ReadingBudget): Promise<ReadResult> {
  return new Promise((resolve, rejectRead) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let pending: Buffer[] = [];
    let endedWhilePaused = false;
    let idle: NodeJS.Timeout | undefined;
    const watch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => finish('idle'), idleMs);
    };
    const reader: Reader = {
      resume: () => {
        const resumed = pending;
        pending = [];
        for (const chunk of resumed) {
          budget.add(chunk.length);
          if (!keep(chunk)) return;
        }
        if (endedWhilePaused) return onEnd();
        watch();
        req.resume();
      },
    };
    /** Counts a chunk already taken from the budget; false when the body is now too large. */
    const keep = (chunk: Buffer): boolean => {
      if (size + chunk.length > maxBytes) {
        budget.give(chunk.length);
        finish('too large');
        return false;
      }
      size += chunk.length;
      chunks.push(chunk);
      return true;
    };
    const onData = (chunk: Buffer) => {
      if (pending.length || !budget.take(reader, chunk.length)) {
        // No room: wait, the socket unread, until the budget resumes us.
        pending.push(chunk);
        clearTimeout(idle);
        req.pause();
        return;
      }
      if (keep(chunk)) watch();
    };
    const onEnd = () => {
      if (pending.length) {
        endedWhilePaused = true; // the chunks held back come first
        return;
      }
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const finish = (result: 'too large' | 'idle') => {
      stop();
      budget.give(size);
      chunks.length = 0;
      resolve(result);
    };
    const onFail = (error?: Error) => {
      stop();
      budget.give(size);
      rejectRead(error ?? new Error('aborted'));
    };
    const stop = () => {
      clearTimeout(idle);
      pending = [];
      budget.leave(reader);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFail);
      req.off('aborted', onFail);
      req.off('close', onClose);
    };
    const onClose = () => onFail(new Error('closed'));
    budget.join(reader);
    watch();
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

function seconds(ms: number): string {
  return String(ms / 1000);
}

/** Bytes in MiB with one decimal: `26.4 MiB`. */
function describeSize(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
}

function describeBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
