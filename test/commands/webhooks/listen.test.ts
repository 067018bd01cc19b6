// `email webhooks listen` in-process over real loopback HTTP: what it
// prints, what it answers, saving, forwarding, and that nothing it does after
// answering can hold up the answer.
import { mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox } from '../../../src/sandbox/index.js';
import { toXml as sandboxXml } from '../../../src/sandbox/webhooks.js';
import { encodeDelivery } from '../../../src/webhooks/encode.js';
import type { WebhookDelivery } from '../../../src/webhooks/events.js';
import { syntheticEvents } from '../../../src/webhooks/synthetic.js';
import { paddedDelivery, post, postWithHeaders, startEndlessReceiver, startListen, startScriptedReceiver, waitUntil, type RunningListen } from '../../helpers/webhooks.js';
import { useCleanups } from '../../helpers/cleanups.js';
import { humanStderr } from '../../helpers/cli.js';

const LIST = SEED_LIST_IDS.newsletter;
const cleanups = useCleanups();

async function listen(args: string[], options?: Parameters<typeof startListen>[1]): Promise<RunningListen> {
  const l = await startListen(args, options);
  let stopped = false;
  const stop = l.stop;
  l.stop = async () => {
    stopped = true;
    return stop();
  };
  cleanups.push(async () => (stopped ? undefined : stop()));
  return l;
}

const sample: WebhookDelivery = {
  Events: [
    { Type: 'Subscribe', Date: '2025-03-04 05:06:07', EmailAddress: 'ada@example.com', Name: 'Ada Lovelace', CustomFields: [{ Key: '[Plan]', Value: 'Pro' }], SignupIPAddress: 'Manually Entered' },
    { Type: 'Deactivate', Date: '2025-03-04 05:06:08', EmailAddress: 'grace@example.com', Name: 'Grace Hopper', State: 'Unsubscribed', CustomFields: [] },
  ],
  ListID: LIST,
};

const ndjson = (text: string) => text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

describe('webhooks listen', () => {
  it('prints its URL on stderr, answers a JSON delivery 200 and prints each event tab-separated in a pipe', async () => {
    const l = await listen([]);
    expect(l.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const answer = await post(`${l.url}/hooks`, JSON.stringify(sample), 'application/json');
    expect(answer.status).toBe(200);
    const result = await l.stop();
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `Subscribe\t2025-03-04 05:06:07\tada@example.com\tAda Lovelace\t\t${LIST}\n` +
        `Deactivate\t2025-03-04 05:06:08\tgrace@example.com\tGrace Hopper\tUnsubscribed\t${LIST}\n`,
    );
  });

  it('--events prints only those types, in any case; every delivery is still answered and saved whole (issue 13.16)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-listen-events-'));
    const l = await listen(['--events', 'subscribe,Update', '--save', dir, '-o', 'ndjson']);
    const withUpdate: WebhookDelivery = { ...sample, Events: [...sample.Events, { Type: 'Update', Date: '2025-03-04 05:06:09', EmailAddress: 'bo@example.com', Name: 'Bo', CustomFields: [] }] };
    const answer = await post(l.url, JSON.stringify(withUpdate), 'application/json');
    expect(answer.status).toBe(200);
    const result = await l.stop();
    expect(ndjson(result.stdout).map((e) => e.Type)).toEqual(['Subscribe', 'Update']);
    const saved = readdirSync(dir);
    expect(saved).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, saved[0]!), 'utf8')).Events).toHaveLength(3);
  });

  it('--events refuses an unknown type with exit 2, naming the types', async () => {
    const { runCli } = await import('../../helpers/cli.js');
    const r = await runCli(['webhooks', 'listen', '--port', '0', '--events', 'Subscribe,Bounce']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--events: "Bounce" is not an event type; the types are Subscribe, Update, Deactivate/);
  });

  it('prints a bordered table with the Type, Date, EmailAddress, Name, State and ListID columns on a terminal', async () => {
    const l = await listen(['--no-color'], { stdoutIsTTY: true });
    await post(l.url, JSON.stringify(sample), 'application/json');
    const { stdout } = await l.stop();
    const header = stdout.split('\n')[1]!;
    expect(header.split('│').map((c) => c.trim()).filter(Boolean)).toEqual(['Type', 'Date', 'EmailAddress', 'Name', 'State', 'ListID']);
    expect(stdout).toContain('grace@example.com');
  });

  it('with -o ndjson prints each event as received, one a line, with its ListID, from JSON and XML alike', async () => {
    const l = await listen(['-o', 'ndjson']);
    expect((await post(l.url, JSON.stringify(sample), 'application/json')).status).toBe(200);
    expect((await post(l.url, sandboxXml(LIST, sample.Events as never), 'application/xml')).status).toBe(200);
    const { stdout } = await l.stop();
    const expected = sample.Events.map((e) => ({ ...e, ListID: LIST }));
    expect(ndjson(stdout)).toEqual([...expected, ...expected]);
    expect(ndjson(stdout)[0].SignupIPAddress).toBe('Manually Entered');
  });

  it('answers a malformed body 400 with a clear line on stderr and keeps running', async () => {
    const l = await listen(['-o', 'ndjson']);
    const bad = await post(l.url, '<Webhook><Events></Webhook>', 'application/xml');
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/^invalid XML at line 1/);
    expect((await post(l.url, '{"Events": []}', 'application/json')).status).toBe(400);
    expect((await post(l.url, JSON.stringify(sample), 'application/json')).status).toBe(200);
    const result = await l.stop();
    expect(result.code).toBe(0);
    expect(humanStderr(result.stderr)).toMatch(/^warning: rejected a POST from \S+ with 400: invalid XML at line 1, column \d+: .+$/m);
    expect(humanStderr(result.stderr)).toMatch(/^warning: rejected a POST from \S+ with 400: ListID is missing$/m);
    expect(ndjson(result.stdout)).toHaveLength(2);
  });

  it('answers anything but POST 405', async () => {
    const l = await listen([]);
    const res = await fetch(l.url);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('--save writes each delivery, byte for byte, to its own file named in arrival order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-webhooks-save-'));
    const l = await listen(['--save', join(dir, 'deliveries')]);
    const json = JSON.stringify(sample);
    const xml = encodeDelivery('xml', sample).body;
    await post(l.url, json, 'application/json');
    await post(l.url, xml, 'application/xml');
    await l.stop();
    const files = readdirSync(join(dir, 'deliveries')).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^delivery-\d{8}T\d{9}Z-000001\.json$/);
    expect(files[1]).toMatch(/-000002\.xml$/);
    expect(readFileSync(join(dir, 'deliveries', files[0]!), 'utf8')).toBe(json);
    expect(readFileSync(join(dir, 'deliveries', files[1]!), 'utf8')).toBe(xml);
  });

  it('--forward-to relays the untouched body and Content-Type and reports the target status', async () => {
    const target = await startScriptedReceiver(cleanups);
    target.script(202, 500);
    const l = await listen(['--forward-to', target.url]);
    const xml = encodeDelivery('xml', sample).body;
    await post(l.url, xml, 'text/xml; charset=utf-8');
    await post(l.url, JSON.stringify(sample), 'application/json');
    await waitUntil(() => target.requests.length === 2, 'two forwarded deliveries');
    const result = await l.stop();
    expect(target.requests.map((r) => [r.contentType, r.body.toString('utf8')])).toEqual([
      ['text/xml; charset=utf-8', xml],
      ['application/json', JSON.stringify(sample)],
    ]);
    expect(result.stderr).toMatch(new RegExp(`^forwarded delivery 1 to ${target.url}: 202 \\(\\d+ ms\\)$`, 'm'));
    expect(humanStderr(result.stderr)).toMatch(new RegExp(`^warning: forwarding delivery 2 to ${target.url}: 500 \\(\\d+ ms\\)$`, 'm'));
  });

  it('--forward-to relays the delivery headers too, without the hop-by-hop ones', async () => {
    const target = await startScriptedReceiver(cleanups);
    const l = await listen(['--forward-to', target.url]);
    const answer = await postWithHeaders(`${l.url}/hooks`, JSON.stringify(sample), {
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/2.1',
      'x-delivery-id': 'd-42',
      'x-trace': 'abc',
      'keep-alive': 'timeout=5',
      connection: 'keep-alive, x-trace',
    });
    expect(answer.status).toBe(200);
    await waitUntil(() => target.requests.length === 1, 'the forwarded delivery');
    await l.stop();
    const { headers, body } = target.requests[0]!;
    expect(body.toString('utf8')).toBe(JSON.stringify(sample));
    expect(headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'Service-Webhooks/2.1', 'x-delivery-id': 'd-42', 'content-length': String(body.length) });
    expect(headers.host).toBe(new URL(target.url).host);
    // Keep-Alive is hop-by-hop, and so is X-Trace, which the sender's Connection header named.
    expect(headers).not.toHaveProperty('keep-alive');
    expect(headers).not.toHaveProperty('x-trace');
  });

  it.each([302, 307])('--forward-to never follows a %i: the other server is not contacted and the delivery counts as not accepted', async (status) => {
    const elsewhere = await startScriptedReceiver(cleanups);
    const target = await startScriptedReceiver(cleanups);
    target.script(status, status);
    target.answerHeaders({ location: elsewhere.url });
    const l = await listen(['--forward-to', target.url, '-o', 'ndjson']);
    const xml = encodeDelivery('xml', sample).body;
    expect((await post(l.url, xml, 'application/xml')).status).toBe(200);
    expect((await post(l.url, JSON.stringify(sample), 'application/json')).status).toBe(200);
    await waitUntil(() => target.requests.length === 2, 'both forwards');
    const result = await l.stop();
    expect(result.code).toBe(0);
    expect(elsewhere.requests).toEqual([]);
    expect(humanStderr(result.stderr)).toMatch(new RegExp(`^warning: forwarding delivery 1 to ${target.url}: ${status} [^,]+, a redirect \\(not followed\\) \\(\\d+ ms\\)$`, 'm'));
    expect(humanStderr(result.stderr)).toMatch(/, 0 forwarded, 2 not accepted by the target$/m);
    expect(ndjson(result.stdout)).toHaveLength(4);
  });

  it('--save never writes through a link, nor over a file, planted at the name a delivery will get; nothing half-written is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-webhooks-links-'));
    const outside = mkdtempSync(join(tmpdir(), 'email-webhooks-victim-'));
    const victim = join(outside, 'victim');
    writeFileSync(victim, 'precious\n', { mode: 0o600 });
    const at = new Date('2025-03-04T05:06:07.089Z');
    // The names are predictable (time of arrival and number): someone who can write to the folder plants them.
    symlinkSync(victim, join(dir, 'delivery-20250304T050607089Z-000001.json'));
    writeFileSync(join(dir, 'delivery-20250304T050607089Z-000002.json'), 'theirs\n');
    const l = await listen(['--save', dir], { now: () => at });
    // 200 means saved: the two that could not be are answered 500, so the service sends them again.
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(l.url, JSON.stringify(sample), 'application/json')).status);
    expect(statuses).toEqual([500, 500, 200]);
    const result = await l.stop();
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(join(dir, 'delivery-20250304T050607089Z-000002.json'), 'utf8')).toBe('theirs\n');
    expect(humanStderr(result.stderr)).toMatch(/^warning: delivery 1 not saved: \S+-000001\.json is a symbolic link; answered 500, so the service sends it again$/m);
    expect(humanStderr(result.stderr)).toMatch(/^warning: delivery 2 not saved: \S+-000002\.json already exists; it is left as it is; answered 500, so the service sends it again$/m);
    expect(result.stderr).toMatch(/, 1 saved, 2 not saved \(answered 500, to be sent again\)$/m);
    expect(readdirSync(dir).sort()).toEqual(['delivery-20250304T050607089Z-000001.json', 'delivery-20250304T050607089Z-000002.json', 'delivery-20250304T050607089Z-000003.json']);
    expect(statSync(join(dir, 'delivery-20250304T050607089Z-000003.json')).mode & 0o777).toBe(0o600);
  });

  it('--save files are readable by their owner only (0600)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-webhooks-mode-'));
    const l = await listen(['--save', dir]);
    await post(l.url, JSON.stringify(sample), 'application/json');
    await l.stop();
    const [file] = readdirSync(dir);
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
  });

  it('refuses a delivery of more than 1,000 events with 413 and a line on stderr, and prints none of it', async () => {
    const l = await listen(['-o', 'ndjson']);
    const events = [...syntheticEvents({ type: 'Update', count: 1001, end: new Date('2025-01-01T00:00:00Z') })];
    const over = encodeDelivery('json', { Events: events, ListID: LIST });
    expect((await post(l.url, over.body, over.contentType)).status).toBe(413);
    const result = await l.stop();
    expect(result.stdout).toBe('');
    expect(humanStderr(result.stderr)).toMatch(/^warning: rejected a POST from \S+ with 413: more than 1000 events in one delivery \(the service sends at most 1000\)$/m);
  });

  it('warns on stderr when --host is not a loopback address: deliveries carry no signature', async () => {
    const l = await listen(['--host', '0.0.0.0']);
    const result = await l.stop();
    expect(result.code).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      'warning: listening on 0.0.0.0, not only on this machine: deliveries carry no signature, so anyone who can reach this port can post events and they will be taken as real ones',
    ]);
  });

  it.each(['127.0.0.1', '127.9.9.9', 'localhost', '::1'])('does not warn for the loopback --host %s', async (host) => {
    const l = await listen(['--host', host]);
    const result = await l.stop();
    expect(result.stderr).not.toMatch(/warning/);
  });

  it('answers 200 while the forward target has not answered yet', async () => {
    const target = await startScriptedReceiver(cleanups);
    target.hold();
    const l = await listen(['--forward-to', target.url]);
    expect((await post(l.url, JSON.stringify(sample), 'application/json')).status).toBe(200);
    await waitUntil(() => target.waiting() === 1, 'the forward to arrive');
    expect((await post(l.url, JSON.stringify(sample), 'application/json')).status).toBe(200);
    expect(target.waiting()).toBe(1); // the second forward waits its turn, in order
    target.release();
    await waitUntil(() => target.requests.length === 2, 'the second forward');
    target.release();
    expect((await l.stop()).code).toBe(0);
  });

  it('answers 503 while stdout takes nothing, never printing what it refused, and 200 again once stdout drains', async () => {
    let written = '';
    let drain: (() => void) | undefined;
    let flowing = false;
    const stuck = {
      write: (s: string | Uint8Array) => ((written += String(s)), flowing),
      once: (_event: 'drain', listener: () => void) => void (drain = listener),
    };
    const l = await listen(['-o', 'ndjson'], { stdout: stuck });
    // The first event is written, then stdout pushes back: no sink took the delivery, so the service sends it again.
    expect((await post(l.url, JSON.stringify(sample), 'application/json')).status).toBe(503);
    expect((await post(l.url, JSON.stringify(sample), 'application/json')).status).toBe(503);
    // The reader catches up.
    flowing = true;
    drain?.();
    expect((await post(l.url, JSON.stringify(sample), 'application/json')).status).toBe(200);
    const { code, stderr } = await l.stop();
    expect(code).toBe(0);
    // The first delivery's first event, then the delivery answered 200: the withdrawn ones are not printed.
    expect(ndjson(written)).toHaveLength(3);
    expect(humanStderr(stderr)).toMatch(/^received 1 delivery, 2 events, 2 answered 503 as no sink took them \(to be sent again\)$/m);
  });

  it('with --json prints one JSON array of every event, closed on Ctrl-C', async () => {
    const l = await listen(['--json']);
    await post(l.url, JSON.stringify(sample), 'application/json');
    const { stdout, code } = await l.stop();
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toHaveLength(2);
  });

  it('refuses a --forward-to that is not an http URL with exit 2', async () => {
    await expect(startListen(['--forward-to', 'ftp://example.com/x'])).rejects.toThrow(/exited 2/);
  });

  it("prints the sandbox's own XML deliveries of a subscriber added through the API", async () => {
    const l = await listen(['-o', 'ndjson']);
    const sandbox = await startSandbox({ port: 0, webhooks: [{ listId: LIST, url: `${l.url}/hooks`, format: 'xml' }], webhookIntervalMs: 20 });
    cleanups.push(() => sandbox.stop());
    const added = await fetch(`${sandbox.url}/email/subscribers/${LIST}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ EmailAddress: 'new.person@example.com', Name: 'New Person', CustomFields: [{ Key: '[Interests]', Value: 'News' }, { Key: '[Interests]', Value: 'Events' }], ConsentToTrack: 'Yes', Resubscribe: false }),
    });
    expect(added.status).toBe(201);
    await waitUntil(() => l.stdout().includes('new.person@example.com'), 'the delivery');
    const [event] = ndjson(l.stdout());
    expect(event).toMatchObject({
      Type: 'Subscribe',
      EmailAddress: 'new.person@example.com',
      Name: 'New Person',
      SignupIPAddress: 'Manually Entered',
      ListID: LIST,
      CustomFields: [{ Key: '[Interests]', Value: 'News' }, { Key: '[Interests]', Value: 'Events' }],
    });
    expect(event.Date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });
});

describe('webhooks listen when what it answered cannot be handed on (issue 19.2, 19.7)', () => {
  it('--forward-to a target that never answers: each forward times out (--timeout), deliveries beyond the bound get 503 with Retry-After, and the summary counts both', async () => {
    const target = await startScriptedReceiver(cleanups);
    target.hold();
    // Forwards time out after 4 s: long enough that a loaded machine still posts the fourth delivery while the first three are held.
    const l = await listen(['--forward-to', target.url, '--timeout', '4', '-o', 'ndjson']);
    const body = paddedDelivery(8_800_000);
    const answers: { status: number; retryAfter: string | null }[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(l.url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      await res.arrayBuffer();
      answers.push({ status: res.status, retryAfter: res.headers.get('retry-after') });
    }
    // Three 8.8 MB deliveries fit under the 32 MiB bound, a fourth does not (unless a forward timed out meanwhile).
    expect(answers.slice(0, 3).map((a) => a.status)).toEqual([200, 200, 200]);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
    for (const a of refused) expect(a.retryAfter).toMatch(/^[1-9]\d*$/);
    const accepted = answers.length - refused.length;
    const result = await l.stop();
    expect(result.code).toBe(0);
    expect(humanStderr(result.stderr)).toMatch(/^warning: holding \d+(\.\d)? MiB of deliveries not yet printed, saved or forwarded \(at most 32 MiB\): answering 503 until some are done$/m);
    expect(humanStderr(result.stderr)).toMatch(new RegExp(`^warning: forwarding delivery 1 to ${target.url}: timed out after 4s \\(\\d+ ms\\)$`, 'm'));
    expect(humanStderr(result.stderr)).toMatch(new RegExp(`^received ${accepted} deliveries, ${accepted * 1000} events, ${refused.length} refused with 503 while full, 0 forwarded, ${accepted} timed out$`, 'm'));
    expect(ndjson(result.stdout)).toHaveLength(accepted * 1000);
  }, 60_000);

  it("--forward-to a target answering an endless 200 body: forwarded at once, only the start of the answer read (issue 19.7)", async () => {
    const target = await startEndlessReceiver(cleanups);
    const l = await listen(['--forward-to', target.url, '--timeout', '60']);
    expect((await post(l.url, JSON.stringify(sample), 'application/json')).status).toBe(200);
    await waitUntil(() => /^forwarded delivery 1 /m.test(l.stderr()), 'the forward to be reported', 10_000);
    const result = await l.stop();
    expect(humanStderr(result.stderr)).toMatch(/, 1 forwarded$/m);
    await waitUntil(() => target.dropped() === 1, 'the connection to be dropped');
  });
});

describe('webhooks listen under a burst (issue bar)', () => {
  it('prints every event of 50 concurrent deliveries of 1,000 events each: count printed = count sent', async () => {
    const l = await listen(['-o', 'ndjson', '-q']);
    const events = [...syntheticEvents({ type: 'Subscribe', count: 1000, end: new Date('2025-01-01T00:00:00Z') })];
    const bodies = Array.from({ length: 50 }, (_, i) => encodeDelivery(i % 5 === 0 ? 'xml' : 'json', { Events: events, ListID: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` }));
    const answers = await Promise.all(bodies.map((b) => post(`${l.url}/hooks`, b.body, b.contentType)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const { stdout, code } = await l.stop();
    expect(code).toBe(0);
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(50_000);
    const perList = new Map<string, number>();
    for (const line of lines) {
      const id = JSON.parse(line).ListID as string;
      perList.set(id, (perList.get(id) ?? 0) + 1);
    }
    expect(perList.size).toBe(50);
    for (const n of perList.values()) expect(n).toBe(1000);
  }, 120_000);
});
