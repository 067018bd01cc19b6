// The HTTP core's limits as a user's script meets them, through the built
// bin/email: an answer far over the size limit (CLI.md "answer size") and a
// long wait asked by a 429 (CLI.md "retries").
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { drainOrClose } from '../helpers/drain.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const MiB = 1024 * 1024;

let servers: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
});

/**
 * Streams a 200 MB JSON array (no Content-Length, so only counting the bytes
 * can find the limit), honouring backpressure and stopping when the client goes.
 */
async function startHugeAnswerServer(totalBytes: number): Promise<{ url: string; requests: () => number; sentBytes: () => number }> {
  const element = `"${'x'.repeat(1022)}",`; // 1 KiB a value
  const chunk = Buffer.from(element.repeat(1024)); // 1 MiB
  let requests = 0;
  let sent = 0;
  const server: Server = createServer(async (req, res) => {
    requests++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    let closed = false;
    res.on('close', () => (closed = true));
    res.write('[');
    while (!closed && sent + chunk.length < totalBytes) {
      sent += chunk.length;
      if (!res.write(chunk)) await drainOrClose(res);
    }
    if (!closed) res.end('"end"]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests, sentBytes: () => sent };
}

describe('answer size', () => {
  it('a streamed 200 MB answer: exit 1 after one request, memory bounded', async () => {
    // The server side waits out back-pressure hundreds of times: without a listener left per wait.
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const server = await startHugeAnswerServer(200 * MiB);
    // The child's peak resident memory, written by a preload as it exits.
    const dir = mkdtempSync(join(tmpdir(), 'email-rss-'));
    const preload = join(dir, 'peak-rss.cjs');
    const out = join(dir, 'peak-rss.txt');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, String(process.resourceUsage().maxRSS)));\n`);
    const r = await spawnCli(['api', '/email/clients/campaigns'], {
      env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'sk_test_huge', NODE_OPTIONS: `--require ${preload}` },
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe('error: GET /email/clients/campaigns: the answer is larger than 64 MiB; refusing to read more\n');
    expect(r.stdout).toBe('');
    expect(server.requests()).toBe(1);
    const peakRssMb = Number(readFileSync(out, 'utf8')) / 1024;
    expect(peakRssMb).toBeGreaterThan(0);
    expect(peakRssMb).toBeLessThan(200);
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(warnings).toEqual([]);
    // Longer than spawnCli's own 60 s, so a child that does not end is reported with what it printed.
  }, 90_000);
});

describe('announced waits', () => {
  let scripted: ScriptedServer;

  it('a 429 asking for 299 s gets one line on stderr before the wait; the test stops the command there', async () => {
    scripted = await startScriptedServer();
    servers.push(scripted);
    scripted.reply({ status: 429, body: { status: 429, message: 'Too many requests' }, headers: { 'retry-after': '299' } });
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('EMAIL_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR') env[k] = v;
    Object.assign(env, { EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_BASE_URL: scripted.url, EMAIL_API_KEY: 'sk_test_wait' });
    const child = spawn(process.execPath, [BIN, 'campaigns', 'sent'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let seen = false;
    // Not a timing assertion: a guard so that a missing line fails in seconds rather than after 299.
    const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.stderr.on('data', (d) => {
      stderr += d;
      if (!seen && /^waiting 299 s/m.test(stderr)) {
        seen = true;
        child.kill('SIGTERM'); // the orderly stop of Ctrl-C
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(guard);
    expect(stderr.split('\n').filter((l) => l.startsWith('waiting '))).toEqual([
      'waiting 299 s: the service asked us to slow down (HTTP 429 on GET /email/clients/campaigns)',
    ]);
    expect(code).toBe(130);
    expect(scripted.calls).toHaveLength(1);
  });
});

describe('redirects (CLI.md "redirects")', () => {
  it('a 302 to campaigns unschedule --yes: exit 1 naming the status and the Location (neutralised), one request, no "Unscheduled"', async () => {
    const scripted = await startScriptedServer();
    servers.push(scripted);
    // A C1 CSI (U+009B) passes the HTTP parser as a Latin-1 byte: it must not reach the terminal raw.
    scripted.reply({ status: 302, headers: { location: 'https://sso.example/login\u009b2J' } });
    const r = await spawnCli(['campaigns', 'unschedule', '--campaign', '1a2b3c4d5e6f40718293a4b5c6d7e8f9', '--yes'], {
      env: { EMAIL_BASE_URL: scripted.url, EMAIL_API_KEY: 'sk_test_redirect' },
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(
      'error: the service answered 302 Found to POST /email/campaigns/1a2b3c4d5e6f40718293a4b5c6d7e8f9/unschedule, pointing to https://sso.example/login\\x9b2J: a proxy or a wrong base URL, not a done operation (nothing was followed)',
    );
    expect(scripted.calls).toHaveLength(1);
  });
});
