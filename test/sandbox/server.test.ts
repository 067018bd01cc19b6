// The HTTP shell: routing, recording, body handling, robustness, concurrency.
import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox } from '../../src/sandbox/index.js';
import { RequestLog } from '../../src/sandbox/server.js';
import { useSandbox, withSandbox } from '../helpers/sandbox.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;
const client = useSandbox({}, 'all');

describe('routing', () => {
  it('answers an unknown route with a 404 status body naming the method and path', async () => {
    const answer = await client.call('GET', '/email/nothing/here');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ status: 404, message: 'No such endpoint: GET /email/nothing/here' });
  });

  it('answers a known path with the wrong method 405, naming the allowed methods in Allow', async () => {
    const answer = await client.call('DELETE', `/email/subscribers/${NEWSLETTER}`);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST, PUT');
    expect(answer.body).toEqual({ status: 405, message: expect.stringContaining('DELETE') });
    const listsForEmail = await client.call('POST', '/email/clients/listsforemail?email=ada@example.com');
    expect(listsForEmail.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers HEAD like GET, without a body', async () => {
    const get = await client.call('GET', '/email/clients/scheduled');
    const head = await client.call('HEAD', '/email/clients/scheduled');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
  });

  it('answers a missing key with 401 before looking at the route', async () => {
    const answer = await client.call('GET', '/email/nothing', undefined, { key: null });
    expect(answer.status).toBe(401);
  });

  it('accepts another API key when configured', async () => {
    const other = await withSandbox({ apiKey: 'k-123' });
    try {
      expect(other.sandbox.apiKey).toBe('k-123');
      expect((await other.call('GET', '/email/clients/listsforemail?email=ada@example.com')).status).toBe(200);
      expect((await other.call('GET', '/email/clients/listsforemail?email=ada@example.com', undefined, { key: 'sandbox-key' })).status).toBe(401);
    } finally {
      await other.sandbox.stop();
    }
  });
});

describe('recorded requests', () => {
  it('records method, path, query, body and status, never the key in clear', async () => {
    client.sandbox.clearRequests();
    await client.call('PUT', `/email/subscribers/${NEWSLETTER}?email=nobody@example.com`, { EmailAddress: 'nobody@example.com', ConsentToTrack: 'Yes' });
    expect(client.sandbox.requestCount()).toBe(1);
    const [recorded] = client.sandbox.requests;
    expect(recorded).toMatchObject({
      method: 'PUT',
      path: `/email/subscribers/${NEWSLETTER}`,
      query: { email: 'nobody@example.com' },
      body: { EmailAddress: 'nobody@example.com', ConsentToTrack: 'Yes' },
      status: 400,
    });
    expect(recorded.headers.authorization).toBe('Bearer ***');
    expect(JSON.stringify(client.sandbox.requests)).not.toContain(client.sandbox.apiKey);
  });

  it('drops the bodies of older requests beyond the body budget, keeping the requests', () => {
    const log = new RequestLog(100, 250);
    for (let i = 0; i < 5; i++) log.push({ method: 'POST', path: `/${i}`, query: {}, headers: {}, body: { n: i }, status: 200 }, 100);
    expect(log.list.map((r) => r.body)).toEqual([
      '[body of 100 bytes no longer kept]',
      '[body of 100 bytes no longer kept]',
      '[body of 100 bytes no longer kept]',
      { n: 3 },
      { n: 4 },
    ]);
  });

  it('keeps only the most recent requests, while counting all of them', () => {
    const log = new RequestLog(3);
    for (let i = 0; i < 5; i++) log.push({ method: 'GET', path: `/${i}`, query: {}, headers: {}, body: undefined, status: 200 });
    expect(log.list.map((r) => r.path)).toEqual(['/2', '/3', '/4']);
    expect(log.count).toBe(5);
  });
});

describe('bad bodies never crash the sandbox', () => {
  const bodies = ['null', '[]', '123', '"text"', 'true', '{"EmailAddress": {"$gt": ""}}', '{"Subscribers": "all"}', '{"CustomFields": 5}', '{"FieldName": [], "DataType": 1}', '{"Subscribers": [null, 1, "x"]}'];
  const targets: [string, string][] = [
    ['POST', `/email/subscribers/${NEWSLETTER}`],
    ['PUT', `/email/subscribers/${NEWSLETTER}?email=ada@example.com`],
    ['POST', `/email/subscribers/${NEWSLETTER}/import`],
    ['POST', `/email/lists/${NEWSLETTER}/customfields`],
  ];
  for (const [method, path] of targets) {
    it(`${method} ${path.split('?')[0]} answers every bad body with 400 in a documented shape`, async () => {
      for (const rawBody of bodies) {
        const answer = await client.call(method, path, undefined, { rawBody });
        expect(answer.status, rawBody).toBe(400);
        const shapeOk = ('Code' in answer.body && 'Message' in answer.body) || (answer.body.status === 400 && typeof answer.body.message === 'string');
        expect(shapeOk, `${rawBody} → ${answer.text}`).toBe(true);
      }
    });
  }

  it('answers malformed JSON with a generic 400 naming the problem', async () => {
    const answer = await client.call('POST', `/email/subscribers/${NEWSLETTER}/import`, undefined, { rawBody: '{"Subscribers": [' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, message: expect.stringMatching(/^Malformed JSON/) });
  });

  it('answers an empty body on a write like a body without fields', async () => {
    const answer = await client.call('POST', `/email/subscribers/${NEWSLETTER}`, undefined, { rawBody: '' });
    expect(answer.body).toEqual({ status: 400, message: expect.any(String) });
  });

  it('refuses a body over the default 16 MiB cap with 413 and keeps serving', async () => {
    const huge = `{"Subscribers": [${'"x",'.repeat(4_400_000)}"x"]}`;
    const answer = await client.call('POST', `/email/subscribers/${NEWSLETTER}/import`, undefined, { rawBody: huge });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ status: 413, message: expect.stringContaining('16777216') });
    expect((await client.call('GET', '/email/clients/listsforemail?email=ada@example.com')).status).toBe(200);
  });

  it('answers a badly encoded path parameter as an unknown route', async () => {
    const answer = await client.call('GET', '/email/subscribers/%E0%A4%A/history?email=ada@example.com');
    expect(answer.status).toBe(404);
  });
});

describe('concurrency', () => {
  it('applies 100 concurrent adds and 10 concurrent imports without losing any', async () => {
    const c = await withSandbox();
    try {
      const adds = Array.from({ length: 100 }, (_, i) =>
        c.call('POST', `/email/subscribers/${SEED_LIST_IDS.customers}`, { EmailAddress: `c${i}@example.com`, Name: `C${i}`, CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false }),
      );
      const imports = Array.from({ length: 10 }, (_, b) =>
        c.call('POST', `/email/subscribers/${SEED_LIST_IDS.customers}/import`, {
          Subscribers: Array.from({ length: 100 }, (_, i) => ({ EmailAddress: `i${b}-${i}@example.com`, Name: 'I', CustomFields: [], ConsentToTrack: 'Yes' })),
          Resubscribe: false,
          QueueSubscriptionBasedAutoResponders: false,
        }),
      );
      const answers = await Promise.all([...adds, ...imports]);
      expect(answers.filter((a) => a.status === 201)).toHaveLength(100);
      expect(answers.filter((a) => a.status === 200).map((a) => a.body.TotalNewSubscribers)).toEqual(Array(10).fill(100));
      expect(Object.keys(c.sandbox.state().lists[SEED_LIST_IDS.customers].Subscribers)).toHaveLength(6 + 100 + 1000);
    } finally {
      await c.sandbox.stop();
    }
  });
});

describe('lifecycle', () => {
  it('starts on a free port, gives its URL, and stops', async () => {
    const s = await startSandbox({ port: 0 });
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await s.stop();
    await expect(fetch(`${s.url}/email/clients/campaigns`)).rejects.toThrow();
  });

  it('describes the seed deterministically', async () => {
    const s = await startSandbox({ port: 0 });
    await s.stop();
    expect(s.seed.lists).toEqual([
      { ListID: SEED_LIST_IDS.newsletter, Name: 'Newsletter' },
      { ListID: SEED_LIST_IDS.customers, Name: 'Customers' },
      { ListID: SEED_LIST_IDS.earlyAccess, Name: 'Early Access' },
    ]);
  });

  it('stops even while a client holds a keep-alive connection, closing that connection', async () => {
    const s = await startSandbox({ port: 0 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const { hostname, port } = new URL(s.url);
      const { status, socket } = await new Promise<{ status: number | undefined; socket: Socket }>((resolve, reject) => {
        const req = request({ host: hostname, port, path: '/email/clients/listsforemail?email=ada@example.com', agent, headers: { Authorization: `Bearer ${s.apiKey}` } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, socket: req.socket! }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(200);
      // The answered request leaves its socket open and idle in the agent's pool.
      await new Promise((r) => setImmediate(r));
      expect(socket.destroyed).toBe(false);
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      // The point is that stop() does not wait on the client: bounded generously.
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([s.stop(), closed]),
        new Promise((_, reject) => {
          bound = setTimeout(() => reject(new Error('stop() or the close of the kept-alive connection did not finish within 5 s')), 5_000);
        }),
      ]).finally(() => clearTimeout(bound));
      expect(socket.destroyed).toBe(true);
      await expect(fetch(`${s.url}/email/clients/campaigns`)).rejects.toThrow();
    } finally {
      agent.destroy();
    }
  });
});
