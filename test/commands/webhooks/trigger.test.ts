// `email webhooks trigger` and `replay` against a loopback receiver: batching
// like the service, each request's status reported, exit codes.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeDelivery } from '../../../src/webhooks/decode.js';
import { runCli } from '../../helpers/cli.js';
import { post, startListen, startScriptedReceiver, type ScriptedReceiver } from '../../helpers/webhooks.js';

const LIST = '22222222-2222-4222-8222-222222222222';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function receiver(): Promise<ScriptedReceiver> {
  const r = await startScriptedReceiver();
  cleanups.push(() => r.close());
  return r;
}

describe('webhooks trigger', () => {
  it('sends 2,500 Update events as requests of 1000, 1000 and 500 and reports each status', async () => {
    const r = await receiver();
    const result = await runCli(['webhooks', 'trigger', '--to', r.url, '--type', 'Update', '--count', '2500', '--list', LIST, '--json']);
    expect(result.code).toBe(0);
    const deliveries = r.requests.map((req) => decodeDelivery(req.body, req.contentType).delivery);
    expect(deliveries.map((d) => d.Events.length)).toEqual([1000, 1000, 500]);
    for (const d of deliveries) expect(d.ListID).toBe(LIST);
    for (const e of deliveries.flatMap((d) => d.Events)) expect(Object.keys(e)).toEqual(['Type', 'Date', 'OldEmailAddress', 'EmailAddress', 'Name', 'State', 'CustomFields']);
    expect(r.requests.every((req) => req.contentType === 'application/json')).toBe(true);
    const report = JSON.parse(result.stdout);
    expect(report.map((x: { request: number; events: number; status: number }) => [x.request, x.events, x.status])).toEqual([
      [1, 1000, 200],
      [2, 1000, 200],
      [3, 500, 200],
    ]);
    expect(result.stderr).toMatch(/^3 requests \(2500 events\) to \S+: 3 accepted$/m);
  });

  it('sends XML with Content-Type application/xml in the documented shape', async () => {
    const r = await receiver();
    const result = await runCli(['webhooks', 'trigger', '--to', r.url, '--format', 'xml', '--type', 'Deactivate', '--count', '3', '--list', LIST]);
    expect(result.code).toBe(0);
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0]!.contentType).toBe('application/xml');
    const xml = r.requests[0]!.body.toString('utf8');
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="utf-8"\?><Webhook><Events><Event><Type>Deactivate<\/Type>/);
    expect(xml).toContain(`</Events><ListID>${LIST}</ListID></Webhook>`);
    expect(xml).toContain('<CustomFields><CustomField><Key>[Plan]</Key>');
    expect(decodeDelivery(xml).delivery.Events).toHaveLength(3);
  });

  it('reaches `webhooks listen`, which prints every triggered event', async () => {
    const l = await startListen(['-o', 'ndjson', '-q']);
    const result = await runCli(['webhooks', 'trigger', '--to', `${l.url}/hooks`, '--count', '1500', '--format', 'xml']);
    const listened = await l.stop();
    expect(result.code).toBe(0);
    expect(listened.stdout.trim().split('\n')).toHaveLength(1500);
  });

  it('exits 3 when some requests are refused and 1 when all are', async () => {
    const r = await receiver();
    r.script(200, 500);
    const partial = await runCli(['webhooks', 'trigger', '--to', r.url, '--count', '3', '--batch-size', '2']);
    expect(partial.code).toBe(3);
    // Request, Events, Status, Time (ms): tab-separated in a pipe
    const rows = partial.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(rows.map((cells) => cells.slice(0, 3))).toEqual([
      ['1', '2', '200'],
      ['2', '1', '500'],
    ]);
    for (const cells of rows) expect(cells[3]).toMatch(/^\d+$/);
    r.script(503);
    const refused = await runCli(['webhooks', 'trigger', '--to', r.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/1 request \(1 event\) to \S+: 0 accepted, 1 not accepted/);
  });

  it('reports a receiver that is not there and exits 1', async () => {
    const r = await receiver();
    const url = r.url;
    await r.close();
    const result = await runCli(['webhooks', 'trigger', '--to', url, '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ request: 1, events: 1, status: null, error: 'connection refused' });
  });

  it('refuses bad flags with exit 2 and sends nothing', async () => {
    const r = await receiver();
    for (const args of [
      ['--list', 'not-a-uuid'],
      ['--type', 'Unsubscribe'],
      ['--format', 'yaml'],
      ['--count', '0'],
      ['--batch-size', '1001'],
    ]) {
      const result = await runCli(['webhooks', 'trigger', '--to', r.url, ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^error: /);
    }
    expect((await runCli(['webhooks', 'trigger', '--to', 'localhost:3000'])).code).toBe(2);
    expect(r.requests).toHaveLength(0);
  });
});

describe('webhooks replay', () => {
  it('resends deliveries saved by listen, untouched and with their content type, in the order given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-replay-'));
    const l = await startListen(['--save', dir, '-q']);
    await runCli(['webhooks', 'trigger', '--to', l.url, '--count', '3', '--format', 'xml', '--list', LIST]);
    await runCli(['webhooks', 'trigger', '--to', l.url, '--count', '2', '--list', LIST]);
    await l.stop();
    const files = readdirSync(dir).sort().map((f) => join(dir, f));
    expect(files).toHaveLength(2);

    const r = await receiver();
    const result = await runCli(['webhooks', 'replay', ...files, '--to', r.url, '--json']);
    expect(result.code).toBe(0);
    expect(r.requests.map((q) => q.contentType)).toEqual(['application/xml', 'application/json']);
    const { readFileSync } = await import('node:fs');
    expect(r.requests.map((q) => q.body.toString('utf8'))).toEqual(files.map((f) => readFileSync(f, 'utf8')));
    expect(JSON.parse(result.stdout).map((x: { file: string; events: number; status: number }) => [x.file, x.events, x.status])).toEqual([
      [files[0], 3, 200],
      [files[1], 2, 200],
    ]);
  });

  it('refuses a missing or malformed file with exit 2 before sending anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-replay-bad-'));
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    writeFileSync(good, JSON.stringify({ Events: [], ListID: LIST }));
    writeFileSync(bad, '{"Events": [');
    const r = await receiver();
    const missing = await runCli(['webhooks', 'replay', good, join(dir, 'nope.json'), '--to', r.url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: cannot read .*nope\.json: no such file$/m);
    const malformed = await runCli(['webhooks', 'replay', good, bad, '--to', r.url]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/^error: .*bad\.json does not hold a delivery: invalid JSON/m);
    expect(r.requests).toHaveLength(0);
  });

  it('sniffs the format of a file without a .json or .xml extension', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-replay-sniff-'));
    const file = join(dir, 'delivery.txt');
    writeFileSync(file, `<Webhook><Events/><ListID>${LIST}</ListID></Webhook>`);
    const r = await receiver();
    expect((await runCli(['webhooks', 'replay', file, '--to', r.url])).code).toBe(0);
    expect(r.requests[0]!.contentType).toBe('application/xml');
    // and the listener accepts it
    const l = await startListen(['-q']);
    const answer = await post(l.url, r.requests[0]!.body, r.requests[0]!.contentType);
    await l.stop();
    expect(answer.status).toBe(200);
  });
});
