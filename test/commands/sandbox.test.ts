// `email sandbox` run in-process through the CLI entry with injected IO.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { InterruptHub } from '../../src/core/interrupts.js';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { machineLines, requireBuild } from '../helpers/cli.js';
import { waitUntil } from '../helpers/webhooks.js';

const dir = mkdtempSync(join(tmpdir(), 'email-sandbox-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(args: string[]) {
  let stdout = '';
  let stderr = '';
  const controller = new AbortController();
  const interrupts = new InterruptHub();
  const exit = run(['sandbox', ...args], {
    io: {
      stdout: { write: (c: string | Uint8Array) => ((stdout += String(c)), true) },
      stderr: { write: (c: string | Uint8Array) => ((stderr += String(c)), true) },
      stdin: Readable.from([]),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
    },
    env: { EMAIL_CONFIG_DIR: dir },
    cwd: dir,
    signal: controller.signal,
    interrupts,
  });
  return { exit, controller, interrupts, out: () => stdout, err: () => stderr };
}

describe('email sandbox', () => {
  it('prints exactly one JSON line when ready, serves, and exits 0 on Ctrl-C', async () => {
    const s = start(['--port', '0', '--json']);
    await waitUntil(() => s.out().includes('\n'), 'the ready line');
    const lines = s.out().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const ready = JSON.parse(lines[0]);
    expect(Object.keys(ready)).toEqual(['baseUrl', 'apiKey', 'lists', 'campaigns', 'segments', 'smartEmails']);
    expect(ready.apiKey).toBe('sandbox-key');
    expect(ready.lists).toContainEqual({ ListID: SEED_LIST_IDS.newsletter, Name: 'Newsletter' });
    const answer = await fetch(`${ready.baseUrl}/email/clients/listsforemail?email=ada@example.com`, { headers: { Authorization: 'Bearer sandbox-key' } });
    expect(answer.status).toBe(200);
    s.interrupts.fire();
    expect(await s.exit).toBe(0);
    expect(s.out().trimEnd().split('\n')).toHaveLength(1);
    await expect(fetch(`${ready.baseUrl}/email/clients/campaigns`)).rejects.toThrow();
  });

  it('prints a readable summary with the URL, key and seeded lists', async () => {
    const s = start(['--port', '0', '--api-key', 'my-key']);
    await waitUntil(() => s.err().includes('Ctrl-C'), 'the summary');
    expect(s.out()).toMatch(/Sandbox listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(s.out()).toContain('API key: my-key');
    expect(s.out()).toContain('Newsletter');
    expect(s.out()).toContain(SEED_LIST_IDS.earlyAccess);
    s.controller.abort();
    expect(await s.exit).toBe(0);
  });

  it('saves the state file on stop and continues from it', async () => {
    const state = join(dir, 'cmd-state.json');
    const first = start(['--port', '0', '--json', '--state', 'cmd-state.json']);
    await waitUntil(() => first.out().includes('\n'), 'the ready line');
    const { baseUrl } = JSON.parse(first.out());
    await fetch(`${baseUrl}/email/subscribers/${SEED_LIST_IDS.customers}`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sandbox-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ EmailAddress: 'persisted@example.com', Name: 'P', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false }),
    });
    first.interrupts.fire();
    expect(await first.exit).toBe(0);
    expect(readFileSync(state, 'utf8')).toContain('persisted@example.com');

    const second = start(['--port', '0', '--json', '--state', state]);
    await waitUntil(() => second.out().includes('\n'), 'the ready line');
    const answer = await fetch(`${JSON.parse(second.out()).baseUrl}/email/clients/listsforemail?email=persisted@example.com`, {
      headers: { Authorization: 'Bearer sandbox-key' },
    });
    expect(await answer.json()).toHaveLength(1);
    second.controller.abort();
    expect(await second.exit).toBe(0);
  });

  it('warns on stderr when --host is not a loopback address: its key is fixed and public', async () => {
    const s = start(['--port', '0', '--host', '0.0.0.0', '--json']);
    await waitUntil(() => s.out().includes('\n'), 'the ready line');
    s.controller.abort();
    expect(await s.exit).toBe(0);
    expect(JSON.parse(s.out()).apiKey).toBe('sandbox-key');
    // --json: stderr is NDJSON (CLI.md "machine mode").
    expect(machineLines(s.err()).filter((line) => line.type === 'warning').map((line) => line.message)).toEqual([
      'listening on 0.0.0.0, not only on this machine: its API key "sandbox-key" is fixed and public, so anyone who can reach this port can read and change the sandbox and make it send webhook deliveries',
    ]);
  });

  it('warns for a non-loopback --host with a key of your own too (it travels unencrypted), and not at all on loopback', async () => {
    const exposed = start(['--port', '0', '--host', '0.0.0.0', '--api-key', 'my-key', '--json']);
    await waitUntil(() => exposed.out().includes('\n'), 'the ready line');
    exposed.controller.abort();
    expect(await exposed.exit).toBe(0);
    expect(machineLines(exposed.err()).filter((line) => line.type === 'warning').map((line) => line.message)).toEqual([
      'listening on 0.0.0.0, not only on this machine: requests and the API key travel unencrypted (http), so anyone who can reach this port or watch the network can use the sandbox',
    ]);
    for (const host of ['127.0.0.1', 'localhost']) {
      const local = start(['--port', '0', '--host', host, '--json']);
      await waitUntil(() => local.out().includes('\n'), 'the ready line');
      local.controller.abort();
      expect(await local.exit).toBe(0);
      expect(local.err()).not.toMatch(/warning/);
    }
  });

  const refusals: [string, string[], RegExp][] = [
    ['a fail rate above 1', ['--fail-rate', '1.5'], /--fail-rate/],
    ['a fail rate that is not a number', ['--fail-rate', 'often'], /--fail-rate/],
    ['a rate limit of 0', ['--rate-limit', '0'], /--rate-limit/],
    ['a port out of range', ['--port', '70000'], /--port/],
    ['a negative latency', ['--latency', '-5'], /--latency/],
    ['a webhook without =', ['--webhook', 'http://127.0.0.1:9/x'], /--webhook/],
    ['a webhook with a non-http URL', ['--webhook', `${SEED_LIST_IDS.newsletter}=ftp://127.0.0.1/x`], /--webhook/],
    ['a webhook on a list the sandbox does not have', ['--webhook', '99999999-9999-4999-8999-999999999999=http://127.0.0.1:9/x'], /no list/],
    ['an unknown webhook format', ['--webhook-format', 'yaml'], /webhook-format|yaml/],
    ['an empty API key', ['--api-key', ''], /--api-key/],
  ];
  for (const [what, args, message] of refusals) {
    it(`refuses ${what} with exit 2`, async () => {
      const s = start(['--port', '0', ...args]);
      expect(await s.exit).toBe(2);
      expect(s.err()).toMatch(message);
      expect(s.out()).toBe('');
    });
  }

  it('refuses an unreadable state file with exit 2 and leaves it alone', async () => {
    const state = join(dir, 'broken.json');
    writeFileSync(state, 'not json');
    const s = start(['--port', '0', '--state', state]);
    expect(await s.exit).toBe(2);
    expect(s.err()).toMatch(/not valid JSON/);
    expect(readFileSync(state, 'utf8')).toBe('not json');
  });

  it('refuses a port in use with exit 2', async () => {
    const first = start(['--port', '0', '--json']);
    await waitUntil(() => first.out().includes('\n'), 'the ready line');
    const port = new URL(JSON.parse(first.out()).baseUrl).port;
    const second = start(['--port', port]);
    expect(await second.exit).toBe(2);
    expect(second.err()).toMatch(/in use/);
    first.controller.abort();
    expect(await first.exit).toBe(0);
  });
});

describe('bin/email sandbox (built bundle)', () => {
  const bin = new URL('../../bin/email', import.meta.url);
  it('stops cleanly with exit 0 on SIGINT', async () => {
    requireBuild();
    const child = spawn(process.execPath, [fileURLToPath(bin), 'sandbox', '--port', '0', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, EMAIL_CONFIG_DIR: dir },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await waitUntil(() => out.includes('\n'), 'the ready line', 20_000);
    const { baseUrl } = JSON.parse(out);
    expect((await fetch(`${baseUrl}/email/clients/listsforemail?email=ada@example.com`, { headers: { Authorization: 'Bearer sandbox-key' } })).status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });
});
