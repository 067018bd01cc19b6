// Test helper: a loopback HTTP server that records webhook deliveries and
// answers with a status the test chooses.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  contentType: string | undefined;
  text: string;
  /** Parsed JSON body (undefined for XML). */
  json: any;
  status: number;
  /** performance.now() when the request headers arrived. */
  startedAt: number;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Status answered to the next deliveries (default 200). */
  respondWith(status: number): void;
  /** JSON events received with a 2xx answer, in order. */
  acceptedEvents(): any[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let status = 200;
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const startedAt = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const contentType = req.headers['content-type'];
      let json: any;
      if (contentType?.includes('json')) json = JSON.parse(text);
      deliveries.push({ contentType, text, json, status, startedAt });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    respondWith: (s) => {
      status = s;
    },
    acceptedEvents: () => deliveries.filter((d) => d.status < 300 && d.json).flatMap((d) => d.json.Events),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Polls until the check passes (no fixed sleeps in tests). */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
