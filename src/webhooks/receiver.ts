// The HTTP side of `webhooks listen`: accepts POSTed deliveries, answers as
// soon as the body is read and decoded (200, or 400 for a body that is not a
// delivery), and hands each delivery on. Printing, saving and forwarding
// happen after the answer, so a slow terminal or a slow forward target never
// delays the 200 the service waits for (service-spec.md "Events" rule 4: a
// receiver that keeps failing is eventually deactivated).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeDelivery } from './decode.js';
import { MalformedDeliveryError, type DeliveryFormat, type WebhookDelivery } from './events.js';

/** 1000 events of a few hundred bytes each are well under 1 MiB; this leaves room for big custom fields. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
/** How long close() lets requests in progress finish before cutting them. */
const CLOSE_GRACE_MS = 5_000;

export interface ReceivedDelivery {
  /** Arrival order, from 1. */
  seq: number;
  receivedAt: Date;
  /** The body exactly as it arrived. */
  body: Buffer;
  contentType?: string;
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
  /** Called after the 200 has been written. */
  onDelivery(delivery: ReceivedDelivery): void;
  onRejected(rejected: RejectedRequest): void;
  now?: () => Date;
}

export interface RunningReceiver {
  url: string;
  port: number;
  /** Stops accepting connections and waits for requests in progress. */
  close(): Promise<void>;
}

export async function startDeliveryReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const now = options.now ?? (() => new Date());
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
    let body: Buffer | undefined;
    try {
      body = await readBody(req, maxBodyBytes);
    } catch {
      // The sender went away before the body was complete: nothing to answer or print.
      res.destroy();
      return;
    }
    const method = req.method ?? 'POST';
    if (body === undefined) return reject(res, options, { status: 413, reason: `body larger than ${maxBodyBytes} bytes`, method, remoteAddress });
    const contentType = req.headers['content-type'];
    let decoded;
    try {
      decoded = decodeDelivery(body, contentType);
    } catch (error) {
      const reason = error instanceof MalformedDeliveryError ? error.message : `could not decode the body: ${(error as Error).message}`;
      return reject(res, options, { status: 400, reason, method, remoteAddress });
    }
    res.writeHead(200, { 'content-length': '0' }).end();
    options.onDelivery({ seq: ++seq, receivedAt: now(), body, contentType, format: decoded.format, delivery: decoded.delivery, remoteAddress });
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
    close: () =>
      new Promise<void>((resolve) => {
        const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
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

/** The whole body, or undefined when it exceeds the cap (the rest is read and dropped so the answer can be sent). */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, rejectRead) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks, size)));
    req.on('error', rejectRead);
    req.on('aborted', () => rejectRead(new Error('aborted')));
  });
}
