import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WALK_CONCURRENCY } from '../../../src/core/pool.js';
import { SEED_CAMPAIGN_IDS } from '../../../src/sandbox/seed-campaigns.js';
import { runCli } from '../../helpers/cli.js';
import { useCommandSandbox } from '../../helpers/sandbox.js';
import { record, startPagedServer } from '../../helpers/commands-paged-server.js';

const WELCOME = SEED_CAMPAIGN_IDS.welcome;
/** The sandbox's default: 2,500 unsubscribes for the first sent campaign. */
const RECORDS = 2_500;
const base = ['campaigns', 'unsubscribes', '--campaign', WELCOME];

const s = useCommandSandbox({ unsubscribesPerCampaign: RECORDS });

const keyOf = (r: { EmailAddress: string; Date: string }) => `${r.EmailAddress} ${r.Date}`;

describe('campaigns unsubscribes, one page', () => {
  it('sends every query parameter under the service name', async () => {
    const r = await s.emailSent([...base, '--since', '2024-02-01 10:30', '--page', '2', '--page-size', '50', '--order-field', 'email', '--order-direction', 'desc']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({
      method: 'GET',
      path: `/email/campaigns/${WELCOME}/unsubscribes`,
      query: { date: '2024-02-01 10:30', page: '2', pagesize: '50', orderfield: 'email', orderdirection: 'desc' },
    });
  });

  it('sends no query parameter that was not given', async () => {
    const r = await s.emailSent(base);
    expect(r.sent[0]!.query).toEqual({});
  });

  it('prints the records of the page as one JSON array with --json, the paging facts on stderr, and table lines otherwise (CLI.md "--json")', async () => {
    const r = await s.email([...base, '--page-size', '10', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout);
    expect(Array.isArray(records)).toBe(true);
    expect(records).toHaveLength(10);
    expect(r.stderr).toMatch(/Page 1 of 250 · 2500 records in all/);
    // --page n prints that page's records, the same shape.
    const page2 = JSON.parse((await s.email([...base, '--page', '2', '--page-size', '10', '--json'])).stdout);
    expect(page2).toHaveLength(10);
    expect(page2).not.toContainEqual(records[0]);
    // The same array whatever the paging flags: one page, --limit, --all.
    const limited = JSON.parse((await s.email([...base, '--page-size', '10', '--limit', '10', '--json'])).stdout);
    expect(limited).toEqual(records);
    // --jq sees the records, not the envelope (`length` was its 8 keys).
    expect((await s.email([...base, '--page-size', '10', '--jq', 'length'])).stdout).toBe('10\n');
    const table = await s.email([...base, '--page-size', '10']);
    const first = records[0];
    expect(table.stdout.split('\n')[0]).toBe([first.EmailAddress, first.ListID, first.Date, first.IPAddress].join('\t'));
    expect(table.stdout.trim().split('\n')).toHaveLength(10);
    expect(table.stderr).toMatch(/Page 1 of 250 · 2500 records in all · next: --page 2/);
  });

  it.each([
    ['2024-02-02', '2024-02-02 00:00'],
    ['2024-02-02T10:00', '2024-02-02 10:00'],
    ['2024-02-02T10:00:59', '2024-02-02 10:00'],
    ['2024-02-02 10:00', '2024-02-02 10:00'],
  ])('takes --since %s (a day, or ISO 8601) and sends "%s" (issue 13.14)', async (value, sent) => {
    const r = await s.emailSent([...base, '--since', value]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]!.query).toMatchObject({ date: sent });
  });

  it.each([
    ['2024-06-01T09', '--since'],
    ['2024-06-01T09:30Z', '--since'],
    ['2024-13-01 09:30', '--since'],
    ['2024-02-30 09:30', '--since'],
    ['2024-06-01 24:00', '--since'],
    ['01/06/2024 09:30', '--since'],
  ])('refuses the date "%s" with 5', async (value) => {
    await s.expectRefused([...base, '--since', value], 5, /--since must be a day or a moment: YYYY-MM-DD, "YYYY-MM-DD HH:MM" or YYYY-MM-DDTHH:MM/);
  });

  it.each(['0', '-1', '1.5', 'two', '2147483648'])('refuses --page %s with 800', async (value) => {
    await s.expectRefused([...base, `--page=${value}`], 800, /--page must be 1\.\.2147483647 \(got "/);
  });

  it.each(['9', '1001', '0', 'ten'])('refuses --page-size %s with 801', async (value) => {
    await s.expectRefused([...base, '--page-size', value], 801, /--page-size must be 10\.\.1000 \(got "/);
  });

  it('accepts the page size bounds 10 and 1000', async () => {
    for (const size of ['10', '1000']) expect((await s.email([...base, '--page-size', size])).code).toBe(0);
  });

  it('refuses an unknown order field with 802 and direction with 803, naming the allowed values', async () => {
    await s.expectRefused([...base, '--order-field', 'size'], 802, /--order-field must be one of email, name, date \(got "size"\)/);
    await s.expectRefused([...base, '--order-direction', 'up'], 803, /--order-direction must be one of asc, desc/);
  });

  it('lists the allowed values in its help', async () => {
    const help = await s.email([...base.slice(0, 2), '--help']);
    expect(help.stdout).toMatch(/--order-field <field>\s+sort field \(choices: "email", "name", "date"\)/);
    expect(help.stdout).toMatch(/\(choices: "asc", "desc"\)/);
  });

  it('surfaces the service error for a campaign that does not exist, with and without --all', async () => {
    for (const extra of [[], ['--all']]) {
      const r = await s.email(['campaigns', 'unsubscribes', '--campaign', '99999999-9999-4999-8999-999999999999', ...extra, '--json']);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stderr).error).toMatchObject({ status: 404 });
      expect(r.stdout).toBe('');
    }
  });

  it('refuses --all with --page', async () => {
    await s.expectRefused([...base, '--all', '--page', '2'], undefined, /leave out --page/);
  });
});

describe('campaigns unsubscribes --all against the sandbox', () => {
  it('fetches page 1 at page size 1000 first, then the rest, and prints each record once, in order, as NDJSON', async () => {
    const r = await s.emailSent([...base, '--all', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]!.query).toEqual({ page: '1', pagesize: '1000' });
    expect(r.sent.slice(1).map((q) => q.query).sort((a, b) => Number(a.page) - Number(b.page))).toEqual([
      { page: '2', pagesize: '1000' },
      { page: '3', pagesize: '1000' },
    ]);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(RECORDS);
    expect(new Set(lines.map(keyOf)).size).toBe(RECORDS);
    // Same records in the same order as the pages read one by one.
    const pages = [];
    for (const page of [1, 2, 3]) pages.push(...JSON.parse((await s.email([...base, '--page', String(page), '--page-size', '1000', '--json'])).stdout));
    expect(lines).toEqual(pages);
    expect(r.stderr).toMatch(/2500 records from 3 pages/);
  });

  it('writes one valid JSON array of records with --json', async () => {
    const r = await s.email([...base, '--all', '--json', '--order-field', 'email']);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout);
    expect(Array.isArray(records)).toBe(true);
    expect(records).toHaveLength(RECORDS);
    const pages = [];
    for (const page of [1, 2, 3]) pages.push(...JSON.parse((await s.email([...base, '--page', String(page), '--page-size', '1000', '--order-field', 'email', '--json'])).stdout));
    expect(records).toEqual(pages);
  });

  it('writes CSV with one header line', async () => {
    const r = await s.email([...base, '--all', '-o', 'csv', '--page-size', '500']);
    const lines = r.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('EmailAddress,ListID,Date,IPAddress');
    expect(lines).toHaveLength(RECORDS + 1);
  });

  it('keeps --page-size and the filters on every page', async () => {
    const r = await s.emailSent([...base, '--all', '--page-size', '100', '--since', '2024-02-01 12:00', '--order-direction', 'desc', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const total = Number(/(\d+) records in all/.exec((await s.email([...base, '--since', '2024-02-01 12:00'])).stderr)?.[1]);
    expect(total).toBeGreaterThan(0);
    expect(r.sent).toHaveLength(Math.ceil(total / 100));
    const byPage = [...r.sent].sort((a, b) => Number(a.query.page) - Number(b.query.page));
    for (const [i, q] of byPage.entries()) expect(q.query).toEqual({ page: String(i + 1), pagesize: '100', date: '2024-02-01 12:00', orderdirection: 'desc' });
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(total);
  });

  it('prints "[]" for a campaign without unsubscribes', async () => {
    const r = await s.emailSent(['campaigns', 'unsubscribes', '--campaign', SEED_CAMPAIGN_IDS.welcome, '--since', '2099-01-01 00:00', '--all', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.sent).toHaveLength(1);
  });

  it('retries a page that failed with a 500 (a read) and still prints each record once', async () => {
    s.sandbox.failNext({ method: 'GET', path: /unsubscribes/, status: 500 });
    const r = await s.emailSent([...base, '--all', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(RECORDS);
  });
});

describe('campaigns unsubscribes --all, paging behaviour', () => {
  it('prints pages in order even when later pages answer first, with at most the window in flight', async () => {
    const all = Array.from({ length: 95 }, (_, i) => record(i));
    // Page 2 is the slowest and page 10 the fastest.
    const server = await startPagedServer({ records: () => all, delayMs: (page) => (page === 1 ? 0 : (12 - page) * 15) });
    try {
      const r = await runCli([...base, '--all', '--page-size', '10', '-o', 'ndjson'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(all);
      expect(server.requests.map((q) => q.page).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(server.maxInFlight).toBeGreaterThan(1);
      expect(server.maxInFlight).toBeLessThanOrEqual(WALK_CONCURRENCY);
    } finally {
      await server.close();
    }
  });

  it('warns when the total changes during the walk and prints a record pushed over a page boundary once', async () => {
    const before = Array.from({ length: 25 }, (_, i) => record(i + 1));
    // After page 1 was served, a newer record arrives at the front: every record moves one place on.
    const after = [record(0), ...before];
    const server = await startPagedServer({ records: (n) => (n === 0 ? before : after), delayMs: () => 5 });
    try {
      const r = await runCli([...base, '--all', '--page-size', '10', '-o', 'ndjson'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/"type":"warning","message":"the number of unsubscribes changed during the walk \(25 at page 1, 26 at page 2\)/);
      const printed = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
      expect(printed).toEqual(before);
      expect(r.stderr).toMatch(/1 repeated across pages skipped/);
    } finally {
      await server.close();
    }
  });

  it('follows the walk to pages added while it runs', async () => {
    const before = Array.from({ length: 20 }, (_, i) => record(i));
    const after = Array.from({ length: 35 }, (_, i) => record(i));
    const server = await startPagedServer({ records: (n) => (n === 0 ? before : after) });
    try {
      const r = await runCli([...base, '--all', '--page-size', '10', '-o', 'ndjson'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(after);
      expect(r.stderr).toMatch(/changed during the walk/);
    } finally {
      await server.close();
    }
  });

  it('stops with the service error when a page is refused, and exits 1', async () => {
    const all = Array.from({ length: 50 }, (_, i) => record(i));
    const server = await startPagedServer({ records: () => all, failPage: { page: 3, status: 400, body: { Code: 800, Message: 'Invalid page number.' } } });
    try {
      const r = await runCli([...base, '--all', '--page-size', '10', '-o', 'ndjson'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' } });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!).error).toMatchObject({ code: 800, message: 'Invalid page number.' });
      // Pages before the failure were printed, in order; nothing after it.
      expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(all.slice(0, 20));
    } finally {
      await server.close();
    }
  });
});

/**
 * A service whose envelopes the test writes page by page, to make a walk run
 * away. It gives up (Ctrl-C on the command) after `giveUpAfter` requests, so
 * a walk that never ends fails the test instead of hanging it.
 */
async function startRunawayServer(envelope: (page: number, requestIndex: number) => Record<string, unknown>, giveUpAfter = 500) {
  const pages: number[] = [];
  const interrupt = new AbortController();
  const server = createServer((req, res) => {
    const page = Number(new URL(req.url ?? '/', 'http://localhost').searchParams.get('page') ?? '1');
    pages.push(page);
    if (pages.length >= giveUpAfter) interrupt.abort();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ResultsOrderedBy: 'date', OrderDirection: 'asc', PageNumber: page, PageSize: 10, ...envelope(page, pages.length - 1) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pages,
    signal: interrupt.signal,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('campaigns unsubscribes --all, a service that claims pages without end', () => {
  it('ends the walk at the first empty page whatever NumberOfPages claims (1e12)', async () => {
    const five = Array.from({ length: 5 }, (_, i) => record(i));
    const server = await startRunawayServer((page) => {
      const results = page === 1 ? five : [];
      return { Results: results, RecordsOnThisPage: results.length, TotalNumberOfRecords: 1e13, NumberOfPages: 1e12 };
    });
    try {
      const r = await runCli([...base, '--all', '--page-size', '10', '-o', 'ndjson'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' }, signal: server.signal });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(five);
      // Page 1, then at most the window of pages started before page 2 came back empty.
      expect(server.pages.length).toBeLessThanOrEqual(1 + WALK_CONCURRENCY);
    } finally {
      await server.close();
    }
  });

  it('asks for nothing more when the first page is empty', async () => {
    const server = await startRunawayServer(() => ({ Results: [], RecordsOnThisPage: 0, TotalNumberOfRecords: 0, NumberOfPages: 1e12 }));
    try {
      const r = await runCli([...base, '--all', '--json'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' }, signal: server.signal });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([]);
      expect(server.pages).toEqual([1]);
    } finally {
      await server.close();
    }
  });

  it('stops with a warning once it has read twice the first page\'s total when the total keeps growing', async () => {
    // Every answer claims ten more records and one more page than the last: full pages for ever.
    const server = await startRunawayServer((page, n) => ({
      Results: Array.from({ length: 10 }, (_, i) => record((page - 1) * 10 + i)),
      RecordsOnThisPage: 10,
      TotalNumberOfRecords: 50 + n * 10,
      NumberOfPages: 5 + n,
    }));
    try {
      const r = await runCli([...base, '--all', '--page-size', '10', '-o', 'ndjson'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' }, signal: server.signal });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^\{"type":"warning","message":".*stopped after 100 records, twice the 50 that page 1 reported/m);
      const printed = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
      expect(printed).toEqual(Array.from({ length: 100 }, (_, i) => record(i)));
      expect(server.pages.length).toBeLessThanOrEqual(10 + WALK_CONCURRENCY);
    } finally {
      await server.close();
    }
  });
});
