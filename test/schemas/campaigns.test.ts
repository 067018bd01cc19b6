// Response schemas of the campaign endpoints (src/schemas/campaigns.ts).
// CLI.md "lenient reading": a read whose answer cannot be understood names
// the field, what was expected and what came. Unsubscriber records were
// checked for EmailAddress only, so `Date: 17` was printed as if fine (issue 20.10).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeIssue } from '../../src/core/response-issues.js';
import { unsubscribesPage } from '../../src/schemas/campaigns.js';
import { runCli } from '../helpers/cli.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const CAMPAIGN = 'c0000000-0000-4000-8000-000000000001';
const record = (over: Record<string, unknown> = {}) => ({ EmailAddress: 'ada@example.com', ListID: '11111111-1111-4111-8111-111111111111', Date: '2024-02-01 10:01:01', IPAddress: '192.0.2.1', ...over });
const page = (results: unknown[]) => ({ Results: results, ResultsOrderedBy: 'date', OrderDirection: 'asc', PageNumber: 1, PageSize: 1000, RecordsOnThisPage: results.length, TotalNumberOfRecords: results.length, NumberOfPages: 1 });

function problem(answer: unknown): string | undefined {
  const parsed = unsubscribesPage.safeParse(answer);
  return parsed.success ? undefined : describeIssue(parsed.error.issues[0], answer);
}

describe('unsubscriber records', () => {
  it('accepts the spec\'s records, null or absent optional fields, and both date forms', () => {
    expect(problem(page([record(), record({ Date: '2024-02-01T10:01:01Z', ListID: null, IPAddress: undefined }), { EmailAddress: 'bo@example.com' }]))).toBeUndefined();
  });

  it('names the field, what was expected and what came, for every field of a record', () => {
    expect(problem(page([record({ Date: 17 })]))).toBe('Results[0].Date: expected a date, got 17');
    expect(problem(page([record(), record(), record({ Date: 'yesterday' })]))).toBe('Results[2].Date: expected a date, got "yesterday"');
    expect(problem(page([record({ EmailAddress: undefined })]))).toBe('Results[0].EmailAddress: expected an email address, got nothing (the field is missing)');
    expect(problem(page([record({ ListID: 5 })]))).toBe('Results[0].ListID: expected an id, got 5');
    expect(problem(page([record({ IPAddress: ['192.0.2.1'] })]))).toBe('Results[0].IPAddress: expected an IP address, got an array of 1');
    expect(problem(page([17]))).toBe('Results[0]: expected an unsubscriber record (an object), got 17');
    expect(problem({ ...page([]), Results: 'none' })).toBe('Results: expected an array of unsubscriber records, got "none"');
  });

  it('keeps the records as received (checked in place, not copied)', () => {
    const answer = page([record()]);
    const parsed = unsubscribesPage.parse(answer);
    expect(parsed.Results).toBe(answer.Results);
  });
});

describe('campaigns unsubscribes with a record that cannot be understood', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('exits 1 naming the field, and prints no record as if it were fine', async () => {
    server.reply({ status: 200, body: page([record({ Date: 17 })]) });
    const r = await runCli(['campaigns', 'unsubscribes', CAMPAIGN], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k-dates' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`unexpected response from GET /email/campaigns/${CAMPAIGN}/unsubscribes: Results[0].Date: expected a date, got 17`);
  });
});
