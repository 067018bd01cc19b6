// Date-times in an import's custom-field columns, through the real binary:
// every vendor writes them (Mailchimp's OPTIN_TIME, HubSpot's Create Date,
// Shopify's timestamps), and a Date field keeps yyyy/mm/dd only, so the
// columns that hold them are named once before the first batch, and
// --date-only sends their date part.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { humanStderr, spawnCli } from '../helpers/cli.js';
import { expectCountsAddUp, importRequests, writeFile } from '../helpers/import-files.js';
import { sandboxPerTest } from '../helpers/sandbox.js';

const LIST = SEED_LIST_IDS.newsletter;
const t = sandboxPerTest();

const email = (file: string, ...more: string[]) => spawnCli(['subscribers', 'import', file, '--list', LIST, ...more], { cwd: t.dir, env: t.env });
const stored = (address: string) => t.sandbox.state().lists[LIST.toLowerCase()]!.Subscribers[address]?.CustomFields;
const sentValues = (since: number, key: string) =>
  importRequests(t.sandbox, since).flatMap((r) => (r.body.Subscribers as unknown as { CustomFields: { Key: string; Value: string }[] }[]).flatMap((s) => s.CustomFields.filter((f) => f.Key === key).map((f) => f.Value)));

const CSV =
  'email,name,consent,Birthday,Company\n' +
  'a@example.com,A,yes,2018-02-12 10:54:27,2019-01-01 09:00\n' +
  'b@example.com,B,yes,2018-08-27T15:06:27.713Z,Acme\n' +
  'c@example.com,C,yes,2018-02-12 10:54:27 UTC,Acme\n' +
  'd@example.com,D,yes,1990/05/17,Acme\n';

describe('date-times in custom-field columns', () => {
  it('are named once, every such column in one line, with --date-only; sent as they are, a Date field stores nothing of them', async () => {
    writeFile(t.dir, 'people.csv', CSV);
    const before = t.sandbox.requestCount();
    const r = await email('people.csv', '--json');
    expect(r.code, r.stderr).toBe(0);
    expectCountsAddUp(JSON.parse(r.stdout));
    const said = humanStderr(r.stderr).split('\n').filter((l) => /date-time/.test(l));
    expect(said, r.stderr).toHaveLength(1);
    expect(said[0]).toMatch(/Birthday/);
    expect(said[0]).toMatch(/Company/);
    expect(said[0]).toMatch(/yyyy\/mm\/dd only/);
    expect(said[0]).toContain('--date-only');
    expect(sentValues(before, 'Birthday')).toEqual(['2018-02-12 10:54:27', '2018-08-27T15:06:27.713Z', '2018-02-12 10:54:27 UTC', '1990/05/17']);
    // The sandbox, as the service's API says (rule 3: a Date field takes year-first dates): a date-time is not stored.
    expect(stored('a@example.com')!['[Birthday]']).toBeUndefined();
    expect(stored('d@example.com')!['[Birthday]']).toEqual(['1990-05-17']);
  });

  it('--date-only sends the yyyy/mm/dd part of each, and the Date field stores it', async () => {
    writeFile(t.dir, 'people.csv', CSV);
    const before = t.sandbox.requestCount();
    const r = await email('people.csv', '--date-only', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(sentValues(before, 'Birthday')).toEqual(['2018/02/12', '2018/08/27', '2018/02/12', '1990/05/17']);
    expect(sentValues(before, 'Company')).toEqual(['2019/01/01', 'Acme', 'Acme', 'Acme']);
    expect(stored('a@example.com')!['[Birthday]']).toEqual(['2018-02-12']);
    expect(stored('b@example.com')!['[Birthday]']).toEqual(['2018-08-27']);
    const said = humanStderr(r.stderr).split('\n').filter((l) => /date-time/.test(l));
    expect(said, r.stderr).toHaveLength(1);
    expect(said[0]).toMatch(/--date-only/);
  });

  it('--dry-run says it too, and sends nothing', async () => {
    writeFile(t.dir, 'people.csv', CSV);
    const before = t.sandbox.requestCount();
    const r = await email('people.csv', '--dry-run');
    expect(r.code, r.stderr).toBe(0);
    expect(t.sandbox.requestCount()).toBe(before);
    expect(r.stderr).toMatch(/date-time[\s\S]*--date-only/);
  });

  it('a file without date-times says nothing of them', async () => {
    writeFile(t.dir, 'plain.csv', 'email,name,consent,Birthday\na@example.com,A,yes,1990/05/17\n');
    const r = await email('plain.csv');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/date-time/);
  });
});
