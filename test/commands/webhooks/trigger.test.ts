// `email webhooks trigger` against a loopback receiver: batching like the
// service, each request's status reported, exit codes.
import { describe, expect, it } from 'vitest';
import { decodeDelivery } from '../../../src/webhooks/decode.js';
import { humanStderr, runCli } from '../../helpers/cli.js';
import { startEndlessReceiver, startListen, startScriptedReceiver, waitUntil, within } from '../../helpers/webhooks.js';
import { useCleanups } from '../../helpers/cleanups.js';

const LIST = '22222222-2222-4222-8222-222222222222';
const cleanups = useCleanups();

describe('webhooks trigger', () => {
  it('sends 2,500 Update events as requests of 1000, 1000 and 500 and reports each status', async () => {
    const r = await startScriptedReceiver(cleanups);
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
    // --json: stderr is NDJSON (CLI.md "machine mode").
    expect(JSON.parse(result.stderr.trim()).message).toMatch(/^3 requests \(2500 events\) to \S+: 3 accepted$/);
  });

  it('sends XML with Content-Type application/xml in the documented shape', async () => {
    const r = await startScriptedReceiver(cleanups);
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
    const r = await startScriptedReceiver(cleanups);
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

  it("reads only the start of a receiver's endless 200 answer: accepted at once, not at --timeout (issue 19.7)", async () => {
    const receiver = await startEndlessReceiver(cleanups);
    const result = await within(10_000, runCli(['webhooks', 'trigger', '--to', receiver.url, '--count', '2', '--batch-size', '1', '--timeout', '60', '--json']), 'trigger to finish');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).map((x: { status: number }) => x.status)).toEqual([200, 200]);
    expect(humanStderr(result.stderr)).toMatch(/^2 requests \(2 events\) to \S+: 2 accepted$/m);
    await waitUntil(() => receiver.dropped() === 2, 'both connections to be dropped');
  });

  it('reports a receiver that is not there and exits 1', async () => {
    const r = await startScriptedReceiver(cleanups);
    const url = r.url;
    await r.close();
    const result = await runCli(['webhooks', 'trigger', '--to', url, '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ request: 1, events: 1, status: null, error: 'connection refused' });
  });

  it('refuses bad flags with exit 2 and sends nothing', async () => {
    const r = await startScriptedReceiver(cleanups);
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
