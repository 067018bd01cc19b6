// The three undici modules the client uses, reached directly rather than by
// undici's index (src/core/undici-lite.ts): a keep-alive Pool, request() bound
// to it, and the error classes, against a real loopback server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors, Pool, poolRequest } from '../../src/core/undici-lite.js';

let server: Server;
let origin: string;
const sockets = new Set<unknown>();
beforeAll(async () => {
  server = createServer((req, res) => {
    sockets.add(req.socket);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('poolRequest', () => {
  it('sends requests through the pool, reusing its one keep-alive connection', async () => {
    const pool = new Pool(origin, { connections: 1 });
    try {
      sockets.clear();
      for (const path of ['/a?x=1', '/b']) {
        const answer = await poolRequest(pool, { method: 'GET', path, headers: { authorization: 'Bearer k' } });
        expect(answer.statusCode).toBe(200);
        expect(await answer.body.json()).toEqual({ method: 'GET', url: path, auth: 'Bearer k' });
      }
      expect(sockets.size).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it("fails with undici's own error classes, which the client maps to its errors", async () => {
    const closed = new Pool(origin);
    await closed.close();
    const failure = await poolRequest(closed, { method: 'GET', path: '/' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(errors.ClientDestroyedError);
    expect(failure).toBeInstanceOf(errors.UndiciError);
    expect(errors.HeadersTimeoutError).toBeTypeOf('function');
  });
});
