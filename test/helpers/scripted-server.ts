// The one loopback HTTP server of the tests that need the wire answer in
// their hands (retries, timeouts, error shapes, paging, whole-process
// traces): serve() records every request and answers as the test's function
// says, counting the requests in flight. startScriptedServer() answers from a
// queue the test fills: an unscripted request is answered 500 naming itself,
// and close() fails when a scripted reply was never used, so a test cannot
// pass by accident either way. A test that scripts more replies than it may
// need on purpose says so with spare().
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

export interface Served {
  url: string;
  calls: RecordedCall[];
  /** The most requests that were being answered at once. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

/** Answers each request with `answer(call, index)`; undefined is a 500 naming the request. */
export async function serve(answer: (call: RecordedCall, index: number) => Reply | undefined): Promise<Served> {
  const calls: RecordedCall[] = [];
  const hanging = new Set<ServerResponse>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer(async (req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    let body = '';
    for await (const chunk of req) body += chunk;
    const call = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
    calls.push(call);
    const next = answer(call, calls.length - 1);
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
    get maxInFlight() {
      return maxInFlight;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface ScriptedServer {
  url: string;
  calls: RecordedCall[];
  /** Replies to the next requests, in order; each must be used before close(). */
  reply(...replies: Reply[]): void;
  /** Replies that may go unused (e.g. retries a test allows but does not count on), queued like reply(). */
  spare(...replies: Reply[]): void;
  /** Closes the server; fails naming the replies of reply() that no request used. */
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const queue: { reply: Reply; spare: boolean }[] = [];
  const served = await serve(() => queue.shift()?.reply);
  return {
    url: served.url,
    calls: served.calls,
    reply: (...replies) => queue.push(...replies.map((reply) => ({ reply, spare: false }))),
    spare: (...replies) => queue.push(...replies.map((reply) => ({ reply, spare: true }))),
    close: async () => {
      await served.close();
      const unused = queue.filter((q) => !q.spare).map((q) => describeReply(q.reply));
      queue.length = 0;
      if (unused.length) {
        throw new Error(`${unused.length} scripted ${unused.length === 1 ? 'reply was' : 'replies were'} never used: ${unused.join(', ')} (a test that may leave replies unused scripts them with spare())`);
      }
    },
  };
}

function describeReply(reply: Reply): string {
  return 'drop' in reply ? 'drop' : 'hang' in reply ? 'hang' : String(reply.status);
}
