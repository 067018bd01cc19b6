// CLI.md "flow control": the walkers with requests in flight at once (import,
// --all, api --paginate) ride a service's rate limit instead of hammering it:
// paced, one shared pause per 429, and every row or record exactly once.
// Counts of 429 answers only, never durations (those live in bench/ratelimit).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { SEED_CAMPAIGN_IDS } from '../../src/sandbox/seed-campaigns.js';
import { runCli } from '../helpers/cli.js';
import { startCommandSandbox, type CommandSandbox } from '../helpers/commands-sandbox.js';
import { expectCountsAddUp, importRequests, listAddresses, peopleCsv, tempDir, writeFile } from '../helpers/import-files.js';

let s: CommandSandbox | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

describe('against the sandbox with --rate-limit (X-RateLimit-* on every answer)', () => {
  it('an import at --concurrency 8 is paced under the limit: at most two 429s (a loaded machine), every row imported once', async () => {
    s = await startCommandSandbox({ rateLimitPerSecond: 5 });
    const dir = tempDir();
    writeFile(dir, 'people.csv', peopleCsv(100));
    const r = await s.email(['subscribers', 'import', 'people.csv', '--list', SEED_LIST_IDS.newsletter, '--batch-size', '10', '--concurrency', '8', '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: 100, new: 100, failed: 0 });
    const sent = importRequests(s.sandbox);
    const refused = sent.filter((x) => x.request.status === 429).length;
    expect(refused, `429 answers of ${sent.length} requests`).toBeLessThanOrEqual(2);
    expect(summary.rateLimited).toBe(refused);
    // Every row acknowledged exactly once.
    const acknowledged = sent.filter((x) => x.request.status === 200).flatMap((x) => x.body.Subscribers.map((sub) => sub.EmailAddress));
    expect(acknowledged).toHaveLength(100);
    expect(new Set(acknowledged).size).toBe(100);
    expect(listAddresses(s.sandbox, SEED_LIST_IDS.newsletter).has('person99@example.com')).toBe(true);
  });

  it('campaigns unsubscribes --all is paced under the limit: at most two 429s, every record once, in order', async () => {
    s = await startCommandSandbox({ rateLimitPerSecond: 5, unsubscribesPerCampaign: 100 });
    const r = await s.emailSent(['campaigns', 'unsubscribes', SEED_CAMPAIGN_IDS.welcome, '--all', '--page-size', '10', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as { EmailAddress: string }[];
    expect(records).toHaveLength(100);
    expect(new Set(records.map((x) => x.EmailAddress)).size).toBe(100);
    const refused = r.sent.filter((x) => x.status === 429).length;
    expect(refused, `429 answers of ${r.sent.length} requests`).toBeLessThanOrEqual(2);
    // In page order: the same records as one page of 100.
    const whole = await s.email(['campaigns', 'unsubscribes', SEED_CAMPAIGN_IDS.welcome, '--page-size', '100', '--json']);
    expect(records).toEqual(JSON.parse(whole.stdout).Results);
  });

  it('an import whose 429s ask for a wait past the retry cap stops at once instead of sitting the wait out', async () => {
    s = await startCommandSandbox();
    s.sandbox.failNext({ method: 'POST', path: /\/import$/, status: 429, retryAfterSeconds: 600, times: 1000 });
    const dir = tempDir();
    writeFile(dir, 'people.csv', peopleCsv(80));
    const r = await s.email(['subscribers', 'import', 'people.csv', '--list', SEED_LIST_IDS.newsletter, '--batch-size', '10', '--concurrency', '4', '--json'], {
      cwd: dir,
      env: { EMAIL_RETRY_MAX_WAIT_MS: '60000' },
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/more than the retry cap allows/);
    const summary = JSON.parse(r.stdout);
    expectCountsAddUp(summary);
    expect(summary.new).toBe(0);
  });

  it('--debug shows the pace the flow control chose', async () => {
    s = await startCommandSandbox({ rateLimitPerSecond: 20, unsubscribesPerCampaign: 30 });
    const r = await s.email(['campaigns', 'unsubscribes', SEED_CAMPAIGN_IDS.welcome, '--all', '--page-size', '10', '--json', '--debug']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/flow: the service allows 20 requests per 1 s .*pacing at 19 requests\/s/);
  });
});

/**
 * A paged listing limited to `limit` requests per one-second window that says
 * so only when it refuses: the 429 carries the X-RateLimit-* headers, the
 * message and Retry-After; a 200 carries none of them.
 */
async function startQuietLimitedServer(limit: number, pages: number, perPage: number) {
  let windowStart = 0;
  let used = 0;
  const statuses: number[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now - (now % 1000);
      used = 0;
    }
    if (used >= limit) {
      statuses.push(429);
      const body = JSON.stringify({ status: 429, message: 'API call limit exceeded. Retry in 1 seconds.' });
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1', 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' });
      res.end(body);
      return;
    }
    used++;
    statuses.push(200);
    const page = Number(url.searchParams.get('page') ?? 1);
    const Results = page <= pages ? Array.from({ length: perPage }, (_, i) => ({ n: (page - 1) * perPage + i })) : [];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ Results, ResultsOrderedBy: 'n', OrderDirection: 'asc', PageNumber: page, PageSize: perPage, RecordsOnThisPage: Results.length, TotalNumberOfRecords: pages * perPage, NumberOfPages: pages }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    statuses,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('against a service that states its limit only with the 429', () => {
  it('api --paginate meets one burst of 429s, then rides the limit: every record once, in order', async () => {
    const server = await startQuietLimitedServer(10, 40, 5);
    try {
      const r = await runCli(['api', '/email/things', '--paginate', '--json'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' } });
      expect(r.code, r.stderr).toBe(0);
      const records = JSON.parse(r.stdout) as { n: number }[];
      expect(records.map((x) => x.n)).toEqual(Array.from({ length: 200 }, (_, i) => i));
      const refused = server.statuses.filter((x) => x === 429).length;
      // Before the limit is known the eight pages in flight can all be refused, once; after the shared pause, paced
      // (a stray 429 or two allowed for a loaded machine). Without the flow control: 17 of 57 requests.
      expect(refused, `429 answers of ${server.statuses.length} requests`).toBeLessThanOrEqual(10);
    } finally {
      await server.close();
    }
  });
});
