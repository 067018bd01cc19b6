// Outgoing posts (trigger, replay, listen --forward-to) reach any port, as API
// requests and curl do: they go through the one HTTP core (undici), not
// through fetch, which refuses the ports of its "bad port" list (6000,
// 6665-6669, 10080…). With --forward-to the sender was already told 200, so
// a refused forward is a lost delivery. End to end through bin/email, to a
// loopback receiver on such a port; a port already taken on this machine is
// skipped with a message.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox } from '../../src/sandbox/index.js';
import { BIN, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { post, waitUntil } from '../helpers/webhooks.js';

const LIST = '33333333-3333-4333-8333-333333333333';
/** Ports fetch refuses (the Fetch standard's "bad port" list) that nothing else minds. */
const BAD_PORTS = [6000, 6665, 10080];

interface PortReceiver {
  url: string;
  bodies: string[];
  close(): Promise<void>;
}

/** A receiver on 127.0.0.1:`port` that answers 200; undefined when the port is taken. */
async function receiverOn(port: number): Promise<PortReceiver | undefined> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!listening) return undefined;
  const receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  opened.push(receiver);
  return receiver;
}

const opened: PortReceiver[] = [];
let child: ChildProcess | undefined;
afterEach(async () => {
  child?.kill('SIGKILL');
  child = undefined;
  await Promise.all(opened.splice(0).map((r) => r.close()));
});

/** The receiver on `port`, or a skip saying the port is taken. */
async function receiverOrSkip(port: number, skip: (note: string) => never): Promise<PortReceiver> {
  const receiver = await receiverOn(port);
  if (!receiver) {
    console.warn(`port ${port} on 127.0.0.1 is in use: its webhooks test is skipped`);
    skip(`port ${port} is in use`);
  }
  return receiver;
}

describe('outgoing webhook posts reach ports fetch refuses', () => {
  for (const port of BAD_PORTS) {
    it(`webhooks trigger --to http://127.0.0.1:${port}/hooks is accepted`, async (ctx) => {
      const receiver = await receiverOrSkip(port, ctx.skip);
      const r = await spawnCli(['webhooks', 'trigger', '--to', receiver.url, '--count', '3', '--list', LIST, '--json']);
      expect(r.stderr).not.toMatch(/bad port|fetch failed/);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject([{ request: 1, events: 3, status: 200 }]);
      expect(receiver.bodies.map((b) => JSON.parse(b).Events.length)).toEqual([3]);
    });
  }

  it('webhooks replay --to a port fetch refuses', async (ctx) => {
    const receiver = await receiverOrSkip(BAD_PORTS[0]!, ctx.skip);
    const file = join(mkdtempSync(join(tmpdir(), 'email-ports-')), 'delivery.json');
    const body = JSON.stringify({ Events: [{ Type: 'Subscribe', Date: '2025-01-01 00:00:00', EmailAddress: 'a@example.com', Name: 'A', CustomFields: [] }], ListID: LIST });
    writeFileSync(file, body);
    const r = await spawnCli(['webhooks', 'replay', file, '--to', receiver.url, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([{ file, events: 1, status: 200 }]);
    expect(receiver.bodies).toEqual([body]);
  });

  it('webhooks listen --forward-to a port fetch refuses forwards the delivery it answered 200', async (ctx) => {
    const receiver = await receiverOrSkip(BAD_PORTS[0]!, ctx.skip);
    const proc = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--port', '0', '--forward-to', receiver.url, '-o', 'ndjson'], {
      env: { PATH: process.env.PATH, EMAIL_CONFIG_DIR: tempConfigDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let stderr = '';
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (d: string) => (stderr += d));
    proc.stdout!.resume();
    await waitUntil(() => /Listening on (\S+)/.test(stderr), 'the listener to start', 20_000);
    const url = /"?Listening on ([^\s"]+)/.exec(stderr)![1]!;
    const body = JSON.stringify({ Events: [], ListID: LIST });
    expect((await post(url, body, 'application/json')).status).toBe(200);
    await waitUntil(() => receiver.bodies.length === 1 || /forwarding delivery 1/.test(stderr), 'the forward');
    expect(stderr).not.toMatch(/bad port|fetch failed/);
    expect(receiver.bodies).toEqual([body]);
    proc.kill('SIGINT');
    const code = await new Promise((resolve) => proc.on('close', resolve));
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/forwarded delivery 1 to http:\/\/127\.0\.0\.1:6000\/hooks: 200/);
    expect(stderr).toMatch(/1 forwarded/);
  });

  // The sandbox stands in for the service, which delivers to any port its webhooks name.
  it("the sandbox's own deliveries reach a port fetch refuses", async (ctx) => {
    const receiver = await receiverOrSkip(BAD_PORTS[1]!, ctx.skip);
    const list = SEED_LIST_IDS.newsletter;
    const sandbox = await startSandbox({ port: 0, webhooks: [{ listId: list, url: receiver.url, format: 'json' }], webhookIntervalMs: 50 });
    try {
      const added = await fetch(`${sandbox.url}/email/subscribers/${list}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ EmailAddress: 'port.6665@example.com', Name: 'P', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false }),
      });
      expect(added.status).toBe(201);
      await waitUntil(() => receiver.bodies.length > 0, 'the delivery', 5_000);
      expect(JSON.parse(receiver.bodies[0]!).Events[0]).toMatchObject({ Type: 'Subscribe', EmailAddress: 'port.6665@example.com' });
    } finally {
      await sandbox.stop();
    }
  });
});
