// --jq through the real binary (CLI.md `--jq`, "signals", "answer size"):
// jq runs where a signal stops it, its output streams with back-pressure and
// stops when the reader goes away, a malformed expression is refused before
// anything is sent, and an expression that needs every record of `--all` is
// bounded. Each test starts bin/email against a loopback server that counts
// what it is asked.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BIN, requireBuild, tempConfigDir } from '../helpers/cli.js';
import { useCleanups } from '../helpers/cleanups.js';
import { record } from '../helpers/commands-paged-server.js';

const CAMPAIGN = '33333333-3333-4333-8333-333333333333';
const cleanups = useCleanups();

interface Counting {
  url: string;
  /** Requests received so far. */
  readonly requests: number;
  /** Resolves once the n-th request was answered. */
  answered(n: number): Promise<void>;
}

/** A service answering every request with `body(url)`, counting them. */
async function startService(body: (url: URL) => unknown): Promise<Counting> {
  let requests = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    requests++;
    const url = new URL(req.url ?? '/', 'http://localhost');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body(url)), () => {
      for (const w of waiters.filter((w) => w.n <= requests)) w.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return requests;
    },
    answered: (n) => (requests >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
  };
}

interface Running {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** The first line of stdout, or what stdout held when the process ended without one. */
  firstLine: Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Largest resident set seen while it ran, in MB (sampled from /proc where there is one). */
  peakRssMb(): number | undefined;
}

/** Starts bin/email; killed after `killAfterMs` (a bound on the wait, the point of these tests, not a timing). */
function start(argv: string[], baseUrl: string, killAfterMs: number): Running {
  requireBuild();
  const child = spawn(process.execPath, [BIN, ...argv], {
    env: { PATH: process.env.PATH ?? '', EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_RETRY_BASE_MS: '5', EMAIL_BASE_URL: baseUrl, EMAIL_API_KEY: 'k-12345678' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  let peak: number | undefined;
  const status = `/proc/${child.pid}/status`;
  const sampler = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(status, 'utf8'))?.[1]);
      if (kb) peak = Math.max(peak ?? 0, kb / 1024);
    } catch {
      // gone, or no /proc here
    }
  }, 50);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  void exit.then(() => {
    clearTimeout(timer);
    clearInterval(sampler);
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exit;
  });
  const firstLine = new Promise<string>((resolve) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += d;
      const end = text.indexOf('\n');
      if (end >= 0) {
        child.stdout.off('data', onData);
        resolve(text.slice(0, end));
      }
    };
    child.stdout.on('data', onData);
    void exit.then(() => resolve(text));
  });
  return { child, stderr: () => stderr, firstLine, exit, peakRssMb: () => (existsSync('/proc/self/status') ? peak : undefined) };
}

describe('--jq runs where a signal stops it (CLI.md "signals")', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)("--jq 'last(range(1e11))' ends at once on %s, exit 130", async (signal) => {
    const service = await startService(() => []);
    const run = start(['campaigns', 'sent', '--jq', 'last(range(1e11))'], service.url, 8_000);
    await service.answered(1);
    // jq is at work on the answer by now; the signal must not wait for it (it would take hours).
    await new Promise((r) => setTimeout(r, 300));
    run.child.kill(signal);
    const { code } = await run.exit;
    expect(code, run.stderr()).toBe(130);
  });
});

describe('--jq output streams (CLI.md "answer size")', () => {
  it("--jq 'range(3e7)' | head -1 prints 0, and the command ends when the reader goes away, exit 0", async () => {
    const service = await startService(() => []);
    const run = start(['campaigns', 'sent', '--jq', 'range(3e7)'], service.url, 15_000);
    const line = await run.firstLine;
    run.child.stdout.destroy();
    const { code } = await run.exit;
    expect(line).toBe('0');
    expect(code, run.stderr()).toBe(0);
    expect(run.stderr()).toBe('');
    // Streamed with back-pressure: 3e7 lines are never held (the whole output is 250 MB).
    const peak = run.peakRssMb();
    if (peak !== undefined) expect(peak).toBeLessThan(200);
  });
});

describe('--jq checks the expression before anything is sent', () => {
  it.each(['.) | (.', '.[] | select(', '$undefined', 'nosuchfunction'])('%s: exit 2, no request', async (expression) => {
    const service = await startService(() => []);
    const run = start(['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--jq', expression], service.url, 15_000);
    const { code } = await run.exit;
    expect(code, run.stderr()).toBe(2);
    expect(service.requests).toBe(0);
    expect(run.stderr()).toMatch(/^error: --jq: /);
  });
});

describe('--all with an expression that needs every record (CLI.md "--all")', () => {
  /** A service claiming 10^10 records, 1,000 a page, on every page asked for. */
  const endlessService = () => {
    const page = Array.from({ length: 1000 }, (_, i) => record(i));
    return startService((url) => ({
      Results: page,
      ResultsOrderedBy: 'date',
      OrderDirection: 'asc',
      PageNumber: Number(url.searchParams.get('page') ?? 1),
      PageSize: 1000,
      RecordsOnThisPage: 1000,
      TotalNumberOfRecords: 1e10,
      NumberOfPages: 1e7,
    }));
  };

  it('against a service claiming 10^10 records: ends with an error naming `.[]` and --limit, memory bounded', async () => {
    const service = await endlessService();
    const run = start(['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--jq', 'length'], service.url, 120_000);
    const { code } = await run.exit;
    expect(code, run.stderr()).toBe(1);
    expect(run.stderr()).toMatch(/^error: --jq: `length` needs every record at once/m);
    expect(run.stderr()).toMatch(/\.\[\] \| …/);
    expect(run.stderr()).toMatch(/--limit/);
    const peak = run.peakRssMb();
    if (peak !== undefined) expect(peak).toBeLessThan(1024);
  }, 150_000);
  it('in machine mode the walk limit ends stderr with an error object of a limit\'s kind, not usage (issue 27.11)', async () => {
    const service = await endlessService();
    const run = start(['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--jq', 'length', '--json'], service.url, 120_000);
    const { code } = await run.exit;
    expect(code, run.stderr()).toBe(1);
    const last = JSON.parse(run.stderr().trim().split('\n').at(-1)!) as { error?: { kind: string; message: string } };
    expect(last.error?.message).toMatch(/^--jq: `length` needs every record at once/);
    // A bound reached on data already fetched: exit 1 and the kind of the other size limits, never `usage` (exit 2's).
    expect(last.error?.kind).toBe('service');
  }, 150_000);
});
