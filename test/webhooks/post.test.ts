// Posting a delivery to a receiver (trigger, replay, listen --forward-to):
// what is read of the receiver's answer (CLI.md "answer size", issue 19.7),
// and the words for a failure, which are the API client's for the same one
// (issue 20: one wording, built in src/core/http-errors.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError } from '../../src/core/errors.js';
import { ApiClient } from '../../src/core/http.js';
import { ANSWER_PREFIX_BYTES, describeOutcome, postBody } from '../../src/webhooks/post.js';
import { useCleanups } from '../helpers/cleanups.js';
import { startEndlessReceiver, startScriptedReceiver, waitUntil, within } from '../helpers/webhooks.js';

const cleanups = useCleanups();

describe('postBody', () => {
  it('reads a small prefix of an endless 200 answer, then drops the connection: 200 at once, long before the timeout', async () => {
    const receiver = await startEndlessReceiver(cleanups);
    // The bound is the point: before, the whole answer was read until the timeout (1.1 GB in 10 s).
    const outcome = await within(5_000, postBody(receiver.url, '{"Events":[],"ListID":"x"}', 'application/json', { timeoutMs: 30_000 }), 'the outcome');
    expect(outcome.status).toBe(200);
    expect(outcome.error).toBeUndefined();
    expect(outcome.answer).toMatch(/^a+$/);
    expect(outcome.answer!.length).toBeLessThanOrEqual(ANSWER_PREFIX_BYTES);
    await waitUntil(() => receiver.dropped() === 1, 'the connection to be dropped');
  });

  it('keeps the whole of a short answer for the log', async () => {
    const receiver = await startScriptedReceiver(cleanups);
    receiver.respondWith(500);
    const outcome = await postBody(receiver.url, '{}', 'application/json');
    expect(outcome).toMatchObject({ status: 500, answer: '' });
  });
});

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(onRequest: (socket: Socket) => void): Promise<string> {
  const server = createServer((req) => onRequest(req.socket));
  server.on('connection', (s) => sockets.add(s));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What the API client says for the same failure: its NetworkError's words after "POST /hooks: ". */
async function clientWords(base: string, timeoutMs?: number): Promise<string> {
  const client = new ApiClient({ baseUrl: base, apiKey: 'k', timeoutMs, retry: { maxRetries: 0 } });
  try {
    await client.request({ method: 'POST', path: '/hooks', body: {}, idempotent: false });
    throw new Error('no failure');
  } catch (err) {
    expect(err).toBeInstanceOf(NetworkError);
    return (err as Error).message.replace(/^POST \/hooks:? /, '');
  } finally {
    await client.close();
  }
}

describe('outgoing posts fail in the API client\'s words', () => {
  it('a connection reset', async () => {
    const base = await serve((socket) => socket.destroy());
    const outcome = await postBody(`${base}/hooks`, '{}', 'application/json');
    expect(describeOutcome(outcome)).toBe(await clientWords(base));
  });

  it('no answer in time', async () => {
    const base = await serve(() => undefined);
    const outcome = await postBody(`${base}/hooks`, '{}', 'application/json', { timeoutMs: 200 });
    expect(describeOutcome(outcome)).toBe(await clientWords(base, 200));
  });

  it('nothing listening', async () => {
    const base = await serve(() => undefined);
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
    const outcome = await postBody(`${base}/hooks`, '{}', 'application/json');
    expect(describeOutcome(outcome)).toBe(await clientWords(base));
  });
});

describe('no outgoing post goes through global fetch', () => {
  // fetch refuses ports that curl and the API client reach (test/e2e/webhooks-ports.test.ts).
  it('src/ calls fetch() only for the sandbox\'s GET of campaign content', () => {
    const root = new URL('../../src/', import.meta.url);
    const callers = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => readFileSync(new URL(file, root), 'utf8').split('\n').some((line) => /(^|[^.\w])fetch\(/.test(line) && !/^\s*(\/\/|\/?\*)/.test(line)));
    expect(callers.map((file) => file.replaceAll('\\', '/'))).toEqual(['sandbox/content/fetch-content.ts']);
  });
});
