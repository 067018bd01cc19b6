// Output for scripts (CLI.md `--fields`, `--jq`, `--limit`, positional ids),
// end to end through bin/email against the sandbox, as a CI script meets it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { SEED_SMART_EMAIL_IDS } from '../../src/sandbox/seed-campaigns.js';
import { spawnCli } from '../helpers/cli.js';

const CAMPAIGN = 'c0000000-0000-4000-8000-000000000001';
let sandbox: RunningSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
});
afterAll(() => sandbox.stop());

const email = (argv: string[]) => spawnCli(argv, { env });

/** Runs the command and returns it with the number of requests the sandbox received meanwhile. */
async function counted(argv: string[]) {
  const before = sandbox.requestCount();
  const result = await email(argv);
  return { ...result, sent: sandbox.requests.slice(before) };
}

describe('--fields', () => {
  it('keeps the asked fields in the asked order in every format, spelled as the service spells them', async () => {
    const argv = ['campaigns', 'sent', '--fields', 'subject,CAMPAIGNID'];
    const json = await email([...argv, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const records = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(records.length).toBeGreaterThan(1);
    for (const r of records) expect(Object.keys(r)).toEqual(['Subject', 'CampaignID']);

    const ndjson = await email([...argv, '-o', 'ndjson']);
    const lines = ndjson.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual(records);

    const csv = await email([...argv, '-o', 'csv']);
    const rows = csv.stdout.trim().split('\r\n');
    expect(rows[0]).toBe('Subject,CampaignID');
    expect(rows.slice(1)).toEqual(records.map((r) => `${r.Subject},${r.CampaignID}`));

    // A table in a pipe: tab-separated columns, in the asked order.
    const table = await email(argv);
    expect(table.stdout.trim().split('\n')).toEqual(records.map((r) => `${r.Subject}\t${r.CampaignID}`));
  });

  it('a dotted name reaches into an object; the key stays the dotted name', async () => {
    const r = await email(['transactional', 'get', SEED_SMART_EMAIL_IDS.passwordReset, '--fields', 'properties.subject,Name', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const record = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(record)).toEqual(['Properties.Subject', 'Name']);
    expect(typeof record['Properties.Subject']).toBe('string');
  });

  it("a dotted name over an array (history's Actions) collects the field of every element: JSON's array, CSV's rows, a table's one cell", async () => {
    const argv = ['subscribers', 'history', '--list', '11111111-1111-4111-8111-111111111111', '--email', 'ada@example.com', '--fields', 'name,actions.event'];
    const json = await email([...argv, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([{ Name: 'Welcome to the Newsletter', 'Actions.Event': ['Open', 'Click'] }]);
    const csv = await email([...argv, '-o', 'csv']);
    expect(csv.stdout).toBe('Name,Actions.Event\r\nWelcome to the Newsletter,Open\r\nWelcome to the Newsletter,Click\r\n');
    const table = await email(argv);
    expect(table.stdout).toBe('Welcome to the Newsletter\tOpen, Click\n');
  });

  it('a number step indexes an array (RuleGroups.0)', async () => {
    const r = await email(['segments', 'get', '5e000000-0000-4000-8000-000000000013', '--fields', 'title,rulegroups.0.rules.clause', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['Title', 'RuleGroups.0.Rules.Clause']);
  });

  it('applies to the records of one page (an array of records in JSON)', async () => {
    const r = await email(['campaigns', 'unsubscribes', CAMPAIGN, '--page-size', '10', '--fields', 'ipaddress,emailaddress', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(records).toHaveLength(10);
    for (const rec of records) expect(Object.keys(rec)).toEqual(['IPAddress', 'EmailAddress']);
  });

  it('an unknown name is exit 2 before anything is sent, listing the known names', async () => {
    const r = await counted(['campaigns', 'unsubscribes', CAMPAIGN, '--fields', 'EmailAddress,Colour']);
    expect(r.code).toBe(2);
    expect(r.sent).toEqual([]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: --fields: unknown field "Colour"; the fields are EmailAddress, ListID, Date, IPAddress\n');
  });
});

describe('--jq', () => {
  it('prints string results raw and other results as compact JSON, one a line', async () => {
    const names = await email(['campaigns', 'sent', '--jq', '.[].Name']);
    expect(names.code, names.stderr).toBe(0);
    const all = JSON.parse((await email(['campaigns', 'sent', '--json'])).stdout) as { Name: string; CampaignID: string }[];
    expect(names.stdout).toBe(all.map((c) => `${c.Name}\n`).join(''));

    const objects = await email(['campaigns', 'sent', '--jq', '.[] | {id: .CampaignID, n: 1}']);
    expect(objects.stdout).toBe(all.map((c) => `{"id":"${c.CampaignID}","n":1}\n`).join(''));

    const count = await email(['campaigns', 'sent', '--jq', 'length']);
    expect(count.stdout).toBe(`${all.length}\n`);
  });

  it('a malformed expression is exit 2 before anything is sent', async () => {
    const r = await counted(['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--jq', '.[] | select(']);
    expect(r.code).toBe(2);
    expect(r.sent).toEqual([]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: --jq: syntax error/);
  });

  it('with --all, `.[] | f` runs per record as pages arrive; an expression on the whole array sees every record', async () => {
    const per = await email(['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--page-size', '1000', '--jq', '.[] | .EmailAddress']);
    expect(per.code, per.stderr).toBe(0);
    const addresses = per.stdout.trim().split('\n');
    expect(addresses).toHaveLength(2500);
    expect(new Set(addresses).size).toBe(2500);
    const whole = await email(['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--jq', '[.[].EmailAddress] | join("\\n")']);
    expect(whole.stdout).toBe(per.stdout);
    const length = await email(['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--jq', 'length']);
    expect(length.stdout).toBe('2500\n');
  });

  it('a runtime error in jq is exit 1 with a usage kind', async () => {
    const r = await email(['campaigns', 'sent', '--jq', '.[0].Name.x', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error).toMatchObject({ kind: 'usage', message: expect.stringMatching(/^--jq: Cannot index string/) });
  });
});

describe('--limit', () => {
  it('--limit 25 with page size 10 prints 25 records and reads no page past the third', async () => {
    const r = await counted(['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--page-size', '10', '--limit', '25', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(25);
    const pages = r.sent.map((q) => Number(q.query.page ?? 1)).sort((a, b) => a - b);
    expect(pages).toEqual([1, 2, 3]);
  });

  it('api --paginate --limit 150 with page size 100 prints 150 records and reads no page past the second', async () => {
    const r = await counted(['api', `/email/campaigns/${CAMPAIGN}/unsubscribes`, '--query', 'pagesize=100', '--paginate', '--limit', '150', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(150);
    const pages = r.sent.map((q) => Number(q.query.page ?? 1)).sort((a, b) => a - b);
    expect(pages).toEqual([1, 2]);
  });

  it('without --all it walks only as far as the limit; on a list it keeps the first n', async () => {
    const r = await counted(['campaigns', 'unsubscribes', CAMPAIGN, '--limit', '3', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
    expect(r.sent).toHaveLength(1);
    const sent = await email(['campaigns', 'sent', '--limit', '2', '--json']);
    expect(JSON.parse(sent.stdout)).toHaveLength(2);
  });

  it('--limit 0 is a usage error', async () => {
    const r = await counted(['campaigns', 'sent', '--limit', '0']);
    expect(r.code).toBe(2);
    expect(r.sent).toEqual([]);
    expect(r.stderr).toBe('error: --limit must be a whole number of at least 1 (got "0")\n');
  });
});

describe('positional ids', () => {
  it('the positional and the flag form print the same', async () => {
    const a = await email(['campaigns', 'summary', CAMPAIGN, '--json']);
    const b = await email(['campaigns', 'summary', '--campaign', CAMPAIGN, '--json']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toBe(b.stdout);
  });

  it('help shows both forms', async () => {
    const h = await email(['campaigns', 'summary', '--help']);
    expect(h.stdout).toMatch(/^Usage: email campaigns summary \[options\] \[campaign\]/m);
    expect(h.stdout).toMatch(/--campaign <id>\s+campaign id \(or as the first argument\)/);
  });

  it('completions offer the id flag and, for --fields, the record field names', async () => {
    const bash = await email(['completion', 'bash']);
    expect(bash.stdout).toMatch(/'campaigns summary'\) printf '%s\\n' --campaign --fields --jq /);
    expect(bash.stdout).toContain("'subscribers history|--fields') echo 'choices:ID Type Name Actions Actions.Event Actions.Date Actions.IPAddress Actions.Detail'");
  });
});

describe('email api --paginate', () => {
  const PATH = `/email/campaigns/${CAMPAIGN}/unsubscribes`;

  it('walks every page of the envelope and prints one JSON array of all Results, each record once, in order', async () => {
    const before = sandbox.requestCount();
    const r = await email(['api', PATH, '--query', 'pagesize=100', '--query', 'orderfield=email', '--paginate']);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as { EmailAddress: string }[];
    expect(records).toHaveLength(2500);
    expect(sandbox.requestCount() - before).toBe(25);
    const addresses = records.map((x) => x.EmailAddress);
    expect(new Set(addresses).size).toBe(2500);
    // The same order as the pages, one by one.
    const page2 = JSON.parse((await email(['api', PATH, '--query', 'pagesize=100', '--query', 'orderfield=email', '--query', 'page=2'])).stdout) as { Results: { EmailAddress: string }[] };
    expect(addresses.slice(100, 200)).toEqual(page2.Results.map((x) => x.EmailAddress));
  });

  it('-o ndjson prints one record a line; --fields, --jq and --limit apply', async () => {
    // No schema for a raw path: a name is matched without regard to case in the records themselves, and keyed as the service spells it.
    const nd = await email(['api', PATH, '--query', 'pagesize=100', '--paginate', '-o', 'ndjson', '--limit', '150', '--fields', 'emailaddress']);
    expect(nd.code, nd.stderr).toBe(0);
    const lines = nd.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(150);
    for (const l of lines) expect(Object.keys(l)).toEqual(['EmailAddress']);
    const jq = await email(['api', PATH, '--query', 'pagesize=100', '--paginate', '--jq', 'length']);
    expect(jq.stdout).toBe('2500\n');
  });

  it('is refused before anything is sent on another method than GET, or with a page in the query', async () => {
    for (const argv of [
      ['api', '-X', 'POST', PATH, '--paginate'],
      ['api', PATH, '--query', 'page=2', '--paginate'],
    ]) {
      const r = await counted(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.sent).toEqual([]);
      expect(r.stderr).toMatch(/^error: --paginate /);
    }
  });
});
