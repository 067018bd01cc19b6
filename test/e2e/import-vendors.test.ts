// Real exports written by newsletter tools (test/fixtures/vendors/SOURCES.md)
// imported through bin/email as a new user would, with --consent yes where the
// file has no consent column. Every valid address is sent exactly once, names
// and custom fields go as CLI.md says, the counts add up, and the failures
// file imported again sends nothing twice. Then what the file means (CLI.md
// "What a file means"): unsubscribed and cleaned rows are not sent (summary
// `skipped`, failures-file Outcome `skipped`, `--include-unsubscribed` sends
// them), empty names stop the import unless `--allow-empty-names`, date-time
// columns are named once and `--date-only` sends their date, consent as a
// spreadsheet writes it is read, Mailchimp's TAGS are values without quotes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFile } from '../helpers/import-files.js';
import { LIST, VENDORS, expectRoundTrip, expectSentOnce, expectSkipNamed, outcomes, vendorImporter, type VendorRun } from '../helpers/import-vendors.js';
import { sandboxPerTest } from '../helpers/sandbox.js';

const t = sandboxPerTest();
const importFile = vendorImporter(t);
const stored = (address: string) => t.sandbox.state().lists[LIST]!.Subscribers[address];
/** A new user's flags for a file with no consent column whose rows are not all named. */
const NEW_USER = ['--consent', 'yes', '--allow-empty-names'];

/** The run skipped exactly these lines as the file's status says, naming `column`. */
function expectSkipped(run: VendorRun, lines: number[], column: string): void {
  expect(run.summary, run.stderr).toBeDefined();
  expect(run.summary!.skipped).toBe(lines.length);
  expect(run.summary!.rejected).toBeGreaterThanOrEqual(lines.length);
  expect(outcomes(run).filter((o) => o.endsWith(' skipped'))).toEqual(lines.map((line) => `${line} skipped`));
  expectSkipNamed(run, column);
}

/** One stderr line names the date-time columns and offers --date-only. */
function expectDateTimesNamed(run: VendorRun, columns: string[]): void {
  const lines = run.messages.split('\n').filter((line) => columns.every((c) => line.includes(c)) && line.includes('--date-only'));
  expect(lines, run.messages).toHaveLength(1);
}

describe('Mailchimp: the subscribed export', () => {
  const FILE = 'mailchimp/subscribed.csv';
  const ALL = ['s1@example.com', 's2@example.com', 's3@example.com', 's4@example.com', 's5@example.com'];

  it('every address sent once, names trimmed, its vendor columns named as custom fields', async () => {
    const run = await importFile(FILE, NEW_USER);
    expect(run.code, run.stderr).toBe(0);
    expectSentOnce(run, ALL);
    expect(run.summary).toMatchObject({ rows: 5, rejected: 0, failed: 0 });
    expect(stored('s5@example.com')?.Name).toBe('Dolor Simet');
    expect(run.values('s5@example.com', 'Company')).toEqual(['Lorem Co.']);
    expect(run.messages).toMatch(/MEMBER_RATING[^\n]*--only-mapped/);
  });

  it('four rows without a name stop the import before anything is sent (exit 2), naming --allow-empty-names', async () => {
    const run = await importFile(FILE, ['--consent', 'yes']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.sent).toEqual([]);
    expect(run.messages).toMatch(/\b4\b[^\n]*--allow-empty-names|--allow-empty-names[^\n]*\b4\b/);
  });

  it('TAGS are values of one key, without the quote marks Mailchimp writes around each tag', async () => {
    const run = await importFile(FILE, NEW_USER);
    expect(run.values('s2@example.com', 'TAGS')).toEqual(['Lorem Editors']);
    expect(run.values('s1@example.com', 'TAGS')).toEqual([]);
    // Two tags on one member, as Mailchimp writes them: each quoted, comma-separated, in one cell.
    const text = readFileSync(join(VENDORS, FILE), 'utf8').replace(/^(s3@.*,)"""Lorem Editors"""$/m, '$1"""Lorem Editors"",""VIP"""');
    writeFile(t.dir, 'two-tags.csv', text);
    const two = await importFile('two-tags.csv', NEW_USER);
    expect(two.values('s3@example.com', 'TAGS')).toEqual(['Lorem Editors', 'VIP']);
  });

  it('the three files of an audience export imported in turn send the subscribed members only', async () => {
    for (const file of ['mailchimp/subscribed.csv', 'mailchimp/unsubscribed.csv', 'mailchimp/cleaned.csv']) await importFile(file, NEW_USER);
    const onList = Object.keys(t.sandbox.state().lists[LIST]!.Subscribers);
    expect(onList.filter((a) => /^[suc]\d@example\.com$/.test(a)).sort()).toEqual(ALL);
  });

  it('OPTIN_TIME and CONFIRM_TIME are named once as date-times; --date-only sends their date', async () => {
    expectDateTimesNamed(await importFile(FILE, NEW_USER), ['OPTIN_TIME', 'CONFIRM_TIME']);
    const dated = await importFile(FILE, [...NEW_USER, '--date-only']);
    expect(dated.code, dated.stderr).toBe(0);
    expect(dated.values('s1@example.com', 'OPTIN_TIME')).toEqual(['2023/04/21']);
    expect(dated.values('s5@example.com', 'CONFIRM_TIME')).toEqual(['2018/02/05']);
  });

  it('consent as a spreadsheet writes it (TRUE/FALSE, 1/0, Y/N) is read as Yes/No', async () => {
    // The export after a spreadsheet added a consent column and saved it.
    const [header, ...rows] = readFileSync(join(VENDORS, FILE), 'utf8').trimEnd().split('\n');
    const consent = ['TRUE', 'FALSE', '1', '0', 'Y'];
    writeFile(t.dir, 'with-consent.csv', [`${header},Consent`, ...rows.map((row, i) => `${row},${consent[i]}`)].join('\n') + '\n');
    const run = await importFile('with-consent.csv', ['--allow-empty-names']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.sent.map((s) => s.ConsentToTrack)).toEqual(['Yes', 'No', 'Yes', 'No', 'Yes']);
  });
});

describe('Mailchimp: the unsubscribed export', () => {
  const FILE = 'mailchimp/unsubscribed.csv';

  it('no row is sent: each is skipped, counted, listed with Outcome skipped and named by UNSUB_TIME', async () => {
    const run = await importFile(FILE, NEW_USER);
    expect(run.sent).toEqual([]);
    expectSkipped(run, [2, 3, 4, 5, 6], 'UNSUB_TIME');
  });

  it('the failures file imported again keeps them unsent', async () => {
    await expectRoundTrip(importFile, await importFile(FILE, NEW_USER), 'Email Address', NEW_USER);
  });

  it('--include-unsubscribed sends them, each once, with their names', async () => {
    const run = await importFile(FILE, [...NEW_USER, '--include-unsubscribed']);
    expect(run.code, run.stderr).toBe(0);
    expectSentOnce(run, ['u1@example.com', 'u2@example.com', 'u3@example.com', 'u4@example.com', 'u5@example.com']);
    expect(stored('u3@example.com')?.Name).toBe('Lorem Ipsum');
    expect(stored('u2@example.com')?.Name).toBe('Simet');
  });
});

describe('Mailchimp: the cleaned export', () => {
  const FILE = 'mailchimp/cleaned.csv';

  it('no row is sent: each is skipped and named by CLEAN_TIME', async () => {
    const run = await importFile(FILE, NEW_USER);
    expect(run.sent).toEqual([]);
    expectSkipped(run, [2, 3, 4, 5, 6], 'CLEAN_TIME');
  });

  it('the failures file imported again keeps them unsent', async () => {
    await expectRoundTrip(importFile, await importFile(FILE, NEW_USER), 'Email Address', NEW_USER);
  });

  it('--include-unsubscribed sends them; TAGS quoted or bare give the same value', async () => {
    const run = await importFile(FILE, [...NEW_USER, '--include-unsubscribed']);
    expectSentOnce(run, ['c1@example.com', 'c2@example.com', 'c3@example.com', 'c4@example.com', 'c5@example.com']);
    expect(run.values('c1@example.com', 'TAGS')).toEqual(['Editors']);
    expect(run.values('c5@example.com', 'TAGS')).toEqual(['Editors']);
    expect(stored('c2@example.com')?.Name).toBe('Simet Lut');
  });
});

describe('beehiiv: the subscribers export', () => {
  const FILE = 'beehiiv/members.csv';
  const ACTIVE = ['lorem@example.com', 'ipsum@example.com', 'elit@example.com', 'nullfirst@example.com', 'fromsubstack@example.com'];

  it('active subscribers sent once with trimmed names; inactive, pending and unsubscribed_at rows skipped', async () => {
    const run = await importFile(FILE, NEW_USER);
    expectSentOnce(run, ACTIVE);
    expect(stored('lorem@example.com')?.Name).toBe('Lorem Name');
    expect(stored('ipsum@example.com')?.Name).toBe('Ipsum Name');
    expect(stored('nullfirst@example.com')?.Name).toBe('Last Only');
    // dolor and simet are inactive, amett pending (never confirmed), unsublit has unsubscribed_at.
    expectSkipped(run, [4, 5, 6, 9], 'status');
    expectSkipNamed(run, 'unsubscribed_at');
  });

  it('the failures file imported again sends nothing', async () => {
    await expectRoundTrip(importFile, await importFile(FILE, NEW_USER), 'email', NEW_USER);
  });

  it('--include-unsubscribed sends every row once', async () => {
    const run = await importFile(FILE, [...NEW_USER, '--include-unsubscribed']);
    expectSentOnce(run, [...ACTIVE, 'dolor@example.com', 'simet@example.com', 'amett@example.com', 'unsublit@example.com']);
    expect(stored('dolor@example.com')?.Name).toBe('Dolor Name');
  });

  it('created_at and unsubscribed_at ("… UTC") are named once as date-times', async () => {
    expectDateTimesNamed(await importFile(FILE, [...NEW_USER, '--include-unsubscribed']), ['created_at', 'unsubscribed_at']);
  });
});

describe('Substack: the subscribers export (paid, comp, gift)', () => {
  const FILE = 'substack/subscriber_emails.csv';
  const DISABLED = ['maguirec086@comm.ca', 'nottimferris@gmail.com'];
  const VALID = [
    'herroooo@substack.com', 'testing@substacks.com', 'rgdigest@gmail.com', 'tcowenaldkuf@gmu.edu',
    'Bob.Something@advisers.co.uk', 'christine_blackling@smallpond.com', 'jill@example.com', 'harry_potter@gmail.com',
    'albert.a.dumfield@gov.mt', 'johnlholiday@gmail.com', 'edwinjeans@gmail.com', 'someNews@gmail.com', 'e271828@pacobell.net',
  ];

  it('every valid address once; rows with email_disabled=true skipped; the non-ASCII address rejected', async () => {
    const run = await importFile(FILE, NEW_USER);
    expect(run.code, run.stderr).toBe(3);
    expectSentOnce(run, VALID);
    expectSkipped(run, [5, 16], 'email_disabled');
    expect(run.failures.find((r) => r.Line === '8')).toMatchObject({ Outcome: 'rejected', Code: '1' });
  });

  it('a file without a name column stops the import (exit 2) unless --allow-empty-names', async () => {
    const run = await importFile(FILE, ['--consent', 'yes']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.sent).toEqual([]);
    expect(run.messages).toContain('--allow-empty-names');
  });

  it('the failures file imported again sends nothing twice', async () => {
    await expectRoundTrip(importFile, await importFile(FILE, NEW_USER), 'email', NEW_USER);
  });

  it('--include-unsubscribed sends the disabled rows too', async () => {
    expectSentOnce(await importFile(FILE, [...NEW_USER, '--include-unsubscribed']), [...VALID, ...DISABLED]);
  });
});

describe('Substack: the sign-ups export', () => {
  const FILE = 'substack/signup_emails.csv';

  it('every valid address once, email_disabled rows skipped, expiry and created_at named as date-times', async () => {
    const run = await importFile(FILE, NEW_USER);
    expect(run.code, run.stderr).toBe(3);
    expect(run.sent).toHaveLength(17);
    expect(new Set(run.sent.map((s) => s.EmailAddress.toLowerCase())).size).toBe(17);
    expectSkipped(run, [4, 15], 'email_disabled');
    expect(outcomes(run).filter((o) => o.endsWith(' rejected'))).toEqual(['7 rejected', '22 rejected']);
    expectDateTimesNamed(run, ['expiry', 'created_at']);
  });

  it('--date-only sends created_at as its date', async () => {
    const run = await importFile(FILE, [...NEW_USER, '--date-only']);
    expect(run.values('herroooo@substack.com', 'created_at')).toEqual(['2018/08/27']);
  });

  it('the failures file imported again sends nothing twice', async () => {
    await expectRoundTrip(importFile, await importFile(FILE, NEW_USER), 'email', NEW_USER);
  });
});

describe('Curated: the subscribers export', () => {
  const FILE = 'curated/subscribers.csv';

  it('every valid address once, the four that are not addresses rejected, Subscribed at named as a date-time', async () => {
    const run = await importFile(FILE, NEW_USER);
    expect(run.code, run.stderr).toBe(3);
    expect(run.summary).toMatchObject({ rows: 20, rejected: 4 });
    expect(run.sent).toHaveLength(16);
    expect(run.sent.map((s) => s.EmailAddress)).not.toContain('Bob.Something@adv');
    expect(run.failures.map((r) => `${r.Line} ${r.Outcome} ${r.Code}`)).toEqual(['5 rejected 1', '6 rejected 1', '10 rejected 1', '21 rejected 1']);
    expectDateTimesNamed(run, ['Subscribed at']);
  });

  it('no name column: exit 2 before sending unless --allow-empty-names', async () => {
    const run = await importFile(FILE, ['--consent', 'yes']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.sent).toEqual([]);
  });

  it('the failures file imported again sends nothing', async () => {
    await expectRoundTrip(importFile, await importFile(FILE, NEW_USER), 'Email Address', NEW_USER);
  });
});

describe('Tiny News Collective: the subscribers export', () => {
  const FILE = 'tinynews/subs-v2.csv';

  it('the Subscribed row sent with its name; the Unsubscribed row skipped, named by status', async () => {
    const run = await importFile(FILE, ['--consent', 'yes']);
    expectSentOnce(run, ['dolor@example.com']);
    expect(stored('dolor@example.com')?.Name).toBe('Dolor Simet');
    expectSkipped(run, [2], 'status');
    expectDateTimesNamed(run, ['Date added', 'Last modified']);
  });

  it('the failures file imported again sends nothing; --include-unsubscribed sends both', async () => {
    await expectRoundTrip(importFile, await importFile(FILE, ['--consent', 'yes']), 'email', ['--consent', 'yes']);
    const run = await importFile(FILE, ['--consent', 'yes', '--include-unsubscribed']);
    expectSentOnce(run, ['lorem@example.com', 'dolor@example.com']);
    expect(stored('lorem@example.com')?.Name).toBe('NoSub Ipsum');
  });
});
