// A small loopback HTTP server whose answers a test scripts one by one, for
// the HTTP core's own behaviour (retries, timeouts, error shapes) where the
// exact wire response matters. Every request is recorded. An unscripted
// request is answered 500 naming itself, so a test cannot pass by accident.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Reply =
  | { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  | { drop: true }
  | { hang: true };

export interface ScriptedServer {
  url: string;
  calls: RecordedCall[];
  reply(...replies: Reply[]): void;
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const queue: Reply[] = [];
  const calls: RecordedCall[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    calls.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const next = queue.shift();
    if (!next) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 500, message: `unscripted request ${req.method} ${req.url}` }));
      return;
    }
    if ('drop' in next) {
      req.socket.destroy();
      return;
    }
    if ('hang' in next) {
      hanging.add(res);
      return;
    }
    if (next.delayMs) await new Promise((r) => setTimeout(r, next.delayMs));
    const text = next.body === undefined ? '' : typeof next.body === 'string' ? next.body : JSON.stringify(next.body);
    res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    reply: (...replies) => queue.push(...replies),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
