// The shapes the real service answers with that service-spec.md does not show
// (CLI.md "identifiers", "lenient reading", "errors"), recorded from its SDKs:
// a bare JSON id string for a created campaign, the paged envelope for sent
// campaigns, ids as 32 hex digits without dashes. The sandbox keeps to the
// spec, so these answers come from a scripted loopback server.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { startScriptedServer, type ScriptedServer } from './helpers/scripted-server.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(() => server.close());

const email = (argv: string[]) => runCli(argv, { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'sk_test_twin' } });

/** Ids as the real service issues them: 32 hex digits, no dashes. */
const LIST = '8f3a0b6c2d1e4f5a9b7c6d5e4f3a2b1c';
const CAMPAIGN = 'A1B2C3D4E5F60718293A4B5C6D7E8F90';

function createArgs(extra: string[] = []): string[] {
  return [
    'campaigns', 'create',
    '--name', 'June news', '--subject', 'News', '--from-name', 'Ada', '--from-email', 'ada@example.com',
    '--reply-to', 'ada@example.com', '--html-url', 'https://example.com/june.html',
    '--list', LIST,
    ...extra,
  ];
}

const sentRecord = (id: string, name: string) => ({
  WebVersionURL: `https://example.com/w/${id}`,
  CampaignID: id,
  Subject: `${name} subject`,
  Name: name,
  FromName: 'Ada',
  FromEmail: 'ada@example.com',
  ReplyTo: 'ada@example.com',
  SentDate: '2024-06-01 10:00:00',
  TotalRecipients: 1200,
});

describe('identifiers (CLI.md "identifiers")', () => {
  it('accepts 32 hex digits without dashes, in any case, and sends them as given', async () => {
    server.reply({ status: 200, body: { Recipients: 10 } });
    const summary = await email(['campaigns', 'summary', '--campaign', CAMPAIGN]);
    expect(summary.code, summary.stderr).toBe(0);
    expect(server.calls[0]!.url).toBe(`/email/campaigns/${CAMPAIGN}/summary`);

    server.reply({ status: 200, body: CAMPAIGN.toLowerCase() });
    const created = await email(createArgs());
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(server.calls[1]!.body).ListIDs).toEqual([LIST]);

    server.reply({ status: 200, body: { SegmentID: LIST.toUpperCase(), Title: 'Pro', ListID: LIST } });
    const segment = await email(['segments', 'get', '--segment', LIST.toUpperCase(), '--json']);
    expect(segment.code, segment.stderr).toBe(0);
    expect(server.calls[2]!.url).toBe(`/email/segments/${LIST.toUpperCase()}`);
  });

  it('still refuses what is not an id, sending nothing', async () => {
    for (const bad of ['8f3a0b6c2d1e4f5a9b7c6d5e4f3a2b1', '8f3a0b6c2d1e4f5a9b7c6d5e4f3a2b1cz', 'g'.repeat(32), '8f3a0b6c-2d1e4f5a9b7c6d5e4f3a2b1c']) {
      const r = await email(['campaigns', 'summary', '--campaign', bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/--campaign must be a UUID/);
    }
    expect(server.calls).toHaveLength(0);
  });
});

describe('campaigns create answered with a bare JSON id string', () => {
  it('prints the new campaign id and exits 0, sending once', async () => {
    server.reply({ status: 201, body: CAMPAIGN });
    const r = await email(createArgs());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${CAMPAIGN}\n`);
    expect(r.stderr).not.toMatch(/unexpected|warning|Invalid input/);
    expect(server.calls).toHaveLength(1);
  });

  it('prints the answer unchanged with --json', async () => {
    server.reply({ status: 201, body: CAMPAIGN });
    const r = await email([...createArgs(), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toBe(CAMPAIGN);
  });
});

describe('a 2xx answer to a creation that is not what was expected', () => {
  it('campaigns create: printed as received with a warning, exit 0, never re-sent', async () => {
    server.reply({ status: 201, body: { Created: true, Count: 1 } });
    const r = await email(createArgs());
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ Created: true, Count: 1 });
    expect(r.stderr).toMatch(/^warning: campaign "June news" created, but the answer is not what was expected \(Created: expected a string, got true\)/m);
    expect(server.calls).toHaveLength(1);
  });

  it('templates create and segments create: the same, in every output format', async () => {
    server.reply({ status: 201, body: { TemplateID: 'tpl-1' } }, { status: 201, body: { SegmentID: 'seg-1' } });
    const t = await email(['templates', 'create', '--name', 'T', '--html-url', 'https://example.com/t.html', '--zip-url', 'https://example.com/t.zip']);
    expect(t.code, t.stderr).toBe(0);
    expect(JSON.parse(t.stdout)).toEqual({ TemplateID: 'tpl-1' });
    expect(t.stderr).toMatch(/^warning: template "T" created, but the answer is not what was expected/m);
    const s = await email(['segments', 'create', '--list', LIST, '--title', 'Pro', '--json']);
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout)).toEqual({ SegmentID: 'seg-1' });
    // --json: the warning is a JSON object on stderr (CLI.md "machine mode").
    expect(s.stderr).toMatch(/^\{"type":"warning","message":"segment \\"Pro\\" created, but the answer is not what was expected/m);
    expect(server.calls.map((c) => c.method)).toEqual(['POST', 'POST']);
  });

  it('an empty 2xx answer to a creation: a warning, exit 0, sent once', async () => {
    server.reply({ status: 200 });
    const r = await email(createArgs());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^warning: campaign "June news" created, but the answer is not what was expected \(expected .*, got an empty answer/m);
    expect(server.calls).toHaveLength(1);
  });
});

describe('campaigns sent answered with the paged envelope', () => {
  const envelope = (results: unknown[], page = 1, pages = 1) => ({
    Results: results,
    ResultsOrderedBy: 'SentDate',
    OrderDirection: 'desc',
    PageNumber: page,
    PageSize: 1000,
    RecordsOnThisPage: results.length,
    TotalNumberOfRecords: results.length * pages,
    NumberOfPages: pages,
  });

  it('prints the Results as the list, in every format', async () => {
    const records = [sentRecord(CAMPAIGN, 'June'), sentRecord(LIST, 'May')];
    server.reply({ status: 200, body: envelope(records) }, { status: 200, body: envelope(records) });
    const table = await email(['campaigns', 'sent']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.trim().split('\n')).toHaveLength(2); // tab-separated lines in a pipe, one a campaign
    expect(table.stdout).toContain(`${CAMPAIGN}\tJune\t`);
    const json = await email(['campaigns', 'sent', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(records);
    expect(json.stderr).toBe('');
  });

  it('says when the service paged the list and only the first page was printed', async () => {
    server.reply({ status: 200, body: envelope([sentRecord(CAMPAIGN, 'June')], 1, 3) });
    const r = await email(['campaigns', 'sent', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(r.stderr).toMatch(/^\{"type":"warning","message":"showing page 1 of 3 \(3 sent campaigns in all\).*email api \/email\/clients\/campaigns --paginate/m);
  });

  it('still reads the spec\'s plain array', async () => {
    server.reply({ status: 200, body: [sentRecord(CAMPAIGN, 'June')] });
    const r = await email(['campaigns', 'sent', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([sentRecord(CAMPAIGN, 'June')]);
  });
});

describe('a read whose answer cannot be understood', () => {
  it('names the field path, what was expected and what came', async () => {
    server.reply({ status: 200, body: [sentRecord(CAMPAIGN, 'June'), { ...sentRecord(LIST, 'May'), CampaignID: 17 }] });
    const r = await email(['campaigns', 'sent']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: unexpected response from GET /email/clients/campaigns: [1].CampaignID: expected an id, got 17\n');
  });

  it('reaches into the envelope for the field that is wrong', async () => {
    server.reply({
      status: 200,
      body: { Results: [sentRecord(CAMPAIGN, 'June'), sentRecord(LIST, 'May'), { Name: 'x' }], PageNumber: 1, NumberOfPages: 1, TotalNumberOfRecords: 3 },
    });
    const r = await email(['campaigns', 'sent']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: unexpected response from GET /email/clients/campaigns: Results[2].CampaignID: expected an id, got nothing (the field is missing)\n');
  });

  it('never says only "Invalid input"', async () => {
    server.reply({ status: 200, body: { SegmentID: LIST, Title: 'Pro', ActiveSubscribers: true } });
    const r = await email(['segments', 'get', '--segment', LIST]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('Invalid input');
    expect(r.stderr).toBe(`error: unexpected response from GET /email/segments/${LIST}: ActiveSubscribers: expected an integer, got true\n`);
  });
});

describe('an error answer with an empty body (CLI.md "errors")', () => {
  it('names the method and path and says HTTP 404 once', async () => {
    server.reply({ status: 404 });
    const r = await email(['segments', 'get', '--segment', LIST]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: GET /email/segments/${LIST}: Not Found (HTTP 404)\n`);
  });

  it('gives the same in the --json error object', async () => {
    server.reply({ status: 404 });
    const r = await email(['segments', 'get', '--segment', LIST, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error).toMatchObject({ status: 404, message: `GET /email/segments/${LIST}: Not Found` });
  });
});
