// A loopback service that answers every request 200 with an empty JSON list:
// enough for a read (`campaigns sent --json`, `api /email/clients/scheduled`)
// to make its one request, for tests that time or trace whole processes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EmptyListServer {
  url: string;
  close(): Promise<void>;
}

export async function startEmptyListServer(): Promise<EmptyListServer> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
