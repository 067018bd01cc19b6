// `email webhooks replay` against a loopback receiver: saved deliveries resent
// as they are, in order, with each request's status reported.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { post, startListen, startScriptedReceiver } from '../../helpers/webhooks.js';
import { useCleanups } from '../../helpers/cleanups.js';

const LIST = '22222222-2222-4222-8222-222222222222';
const cleanups = useCleanups();

describe('webhooks replay', () => {
  it('resends deliveries saved by listen, untouched and with their content type, in the order given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-replay-'));
    const l = await startListen(['--save', dir, '-q']);
    await runCli(['webhooks', 'trigger', '--to', l.url, '--count', '3', '--format', 'xml', '--list', LIST]);
    await runCli(['webhooks', 'trigger', '--to', l.url, '--count', '2', '--list', LIST]);
    await l.stop();
    const files = readdirSync(dir).sort().map((f) => join(dir, f));
    expect(files).toHaveLength(2);

    const r = await startScriptedReceiver(cleanups);
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

  it('takes the folder listen --save wrote: its saved deliveries in arrival order, other files left alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-replay-dir-'));
    const l = await startListen(['--save', dir, '-q']);
    await runCli(['webhooks', 'trigger', '--to', l.url, '--count', '3', '--format', 'xml', '--list', LIST]);
    await runCli(['webhooks', 'trigger', '--to', l.url, '--count', '2', '--list', LIST]);
    await l.stop();
    writeFileSync(join(dir, 'notes.txt'), 'not a delivery');
    const r = await startScriptedReceiver(cleanups);
    const result = await runCli(['webhooks', 'replay', dir, '--to', r.url, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(r.requests.map((q) => q.contentType)).toEqual(['application/xml', 'application/json']);
    expect(JSON.parse(result.stdout).map((x: { events: number }) => x.events)).toEqual([3, 2]);
    const empty = mkdtempSync(join(tmpdir(), 'email-replay-empty-'));
    const none = await runCli(['webhooks', 'replay', empty, '--to', r.url]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/holds no saved delivery/);
  });

  it('refuses a missing or malformed file with exit 2 before sending anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-replay-bad-'));
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    writeFileSync(good, JSON.stringify({ Events: [], ListID: LIST }));
    writeFileSync(bad, '{"Events": [');
    const r = await startScriptedReceiver(cleanups);
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
    const r = await startScriptedReceiver(cleanups);
    expect((await runCli(['webhooks', 'replay', file, '--to', r.url])).code).toBe(0);
    expect(r.requests[0]!.contentType).toBe('application/xml');
    // and the listener accepts it
    const l = await startListen(['-q']);
    const answer = await post(l.url, r.requests[0]!.body, r.requests[0]!.contentType);
    await l.stop();
    expect(answer.status).toBe(200);
  });
});
