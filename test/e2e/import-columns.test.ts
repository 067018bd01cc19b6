// What a file's columns mean, through the real binary (CLI.md "What a file
// means"): rows a vendor's export marks unsubscribed, cleaned or without
// marketing permission are not sent; consent as exports write it; the address
// column of contact exports; two columns with one header; Mailchimp's TAGS.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { spawnCli } from '../helpers/cli.js';
import { expectCountsAddUp, importRequests, writeFile } from '../helpers/import-files.js';
import { sandboxPerTest } from '../helpers/sandbox.js';

const LIST = SEED_LIST_IDS.newsletter;

const t = sandboxPerTest();

const email = (file: string, ...more: string[]) => spawnCli(['subscribers', 'import', file, '--list', LIST, ...more], { cwd: t.dir, env: t.env });
const sent = (since = 0) => importRequests(t.sandbox, since).flatMap((r) => r.body.Subscribers as { EmailAddress: string; ConsentToTrack?: string; Name?: string; CustomFields?: { Key: string; Value: string }[] }[]);
const failuresRows = (name: string) =>
  readFileSync(join(t.dir, name), 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r\n/)
    .map((line) => line.split(','));

const MAILCHIMP_UNSUBSCRIBED =
  '"Email Address","First Name","Last Name",MEMBER_RATING,OPTIN_TIME,UNSUB_TIME,UNSUB_CAMPAIGN_TITLE,UNSUB_CAMPAIGN_ID,UNSUB_REASON,UNSUB_REASON_OTHER,LEID,EUID\n' +
  'ann@example.com,Ann,Example,2,"2018-02-12 10:54:27","2019-03-01 08:00:00","Spring news",abc123,"I no longer want to receive these emails",,11,e1\n' +
  'bob@example.com,Bob,Example,2,"2018-02-12 10:54:27","2019-03-02 08:00:00","Spring news",abc123,"Other",too many,12,e2\n';

describe('status and permission columns: rows the file marks are not sent', () => {
  it("Mailchimp's unsubscribed export: nothing is sent, exit 2, the column and the flag named before sending; rejected with skipped in the summary", async () => {
    writeFile(t.dir, 'unsubscribed.csv', MAILCHIMP_UNSUBSCRIBED);
    const r = await email('unsubscribed.csv', '--consent', 'yes', '--only-mapped', '--json');
    expect(r.code, r.stderr).toBe(2);
    expect(sent()).toHaveLength(0);
    expect(r.stderr).toMatch(/UNSUB_TIME/);
    expect(r.stderr).toMatch(/Mailchimp/);
    expect(r.stderr).toMatch(/--include-unsubscribed/);
    const summary = JSON.parse(r.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: 2, rejected: 2, skipped: 2, new: 0 });
    expect(summary.codes).toMatchObject({ unsubscribed: 2 });
  });

  it('--include-unsubscribed sends them anyway', async () => {
    writeFile(t.dir, 'unsubscribed.csv', MAILCHIMP_UNSUBSCRIBED);
    const r = await email('unsubscribed.csv', '--consent', 'yes', '--only-mapped', '--include-unsubscribed', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(sent().map((s) => s.EmailAddress)).toEqual(['ann@example.com', 'bob@example.com']);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 2, new: 2, rejected: 0, skipped: 0 });
  });

  it("Mailchimp's cleaned export: CLEAN_TIME keeps the rows back as cleaned", async () => {
    writeFile(t.dir, 'cleaned.csv', '"Email Address","First Name",CLEAN_TIME,CLEAN_CAMPAIGN_TITLE,CLEAN_CAMPAIGN_ID\nann@example.com,Ann,"2019-03-01 08:00:00",News,c1\n');
    const r = await email('cleaned.csv', '--consent', 'yes', '--json');
    expect(r.code, r.stderr).toBe(2);
    expect(sent()).toHaveLength(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rejected: 1, skipped: 1, codes: { cleaned: 1 } });
  });

  it("Shopify's Accepts Email Marketing: the no rows are skipped (exit 3), listed in the failures file as skipped/no-permission, and stay unsent when that file is imported again", async () => {
    writeFile(
      t.dir,
      'customers.csv',
      'Customer ID,First Name,Last Name,Email,Accepts Email Marketing,Tags\n' +
        "1,Ann,Example,ann@example.com,yes,\n2,Bob,Example,bob@example.com,no,\n3,Cy,Example,cy@example.com,no,vip\n",
    );
    const r = await email('customers.csv', '--consent', 'yes', '--only-mapped', '--failures', 'failed.csv', '--json');
    expect(r.code, r.stderr).toBe(3);
    expect(sent().map((s) => s.EmailAddress)).toEqual(['ann@example.com']);
    expect(r.stderr).toMatch(/Shopify customers export recognised: column \\"Accepts Email Marketing\\" keeps back 2 of 3 rows.*--include-unsubscribed/);
    const summary = JSON.parse(r.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: 3, new: 1, rejected: 2, skipped: 2 });
    const rows = failuresRows('failed.csv');
    expect(rows[0]!.slice(-4)).toEqual(['Line', 'Outcome', 'Code', 'Message']);
    expect(rows.slice(1).map((row) => row.slice(6, 9))).toEqual([
      ['3', 'skipped', 'no-permission'],
      ['4', 'skipped', 'no-permission'],
    ]);
    expect(rows[1]!.slice(9).join(',')).toMatch(/Accepts Email Marketing.*no/);

    const before = t.sandbox.requestCount();
    const again = await email('failed.csv', '--consent', 'yes', '--only-mapped', '--json');
    expect(again.code, again.stderr).toBe(2);
    expect(sent(before)).toHaveLength(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ rows: 2, rejected: 2, skipped: 2 });
  });

  it('a failures file whose status cell was edited still keeps its skipped rows unsent', async () => {
    writeFile(
      t.dir,
      'failed.csv',
      '\uFEFFEmail,Name,Accepts Email Marketing,Line,Outcome,Code,Message\r\nbob@example.com,Bob,yes,3,skipped,no-permission,"Accepts Email Marketing is ""no"""\r\n',
    );
    const r = await email('failed.csv', '--consent', 'yes', '--json');
    expect(r.code, r.stderr).toBe(2);
    expect(sent()).toHaveLength(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 1, rejected: 1, skipped: 1 });
    expect(JSON.parse(r.stdout).codes).toEqual({ 'no-permission': 1 });
    // The flag sends it, as it sends the rows a status column marks.
    const anyway = await email('failed.csv', '--consent', 'yes', '--include-unsubscribed', '--json');
    expect(anyway.code, anyway.stderr).toBe(0);
    expect(sent().map((s) => s.EmailAddress)).toEqual(['bob@example.com']);
  });

  it('beehiiv: status inactive and unsubscribed_at keep rows back; active rows are sent', async () => {
    writeFile(
      t.dir,
      'beehiiv.csv',
      'email,name,status,created_at,unsubscribed_at\nann@example.com,Ann,active,2024-01-01 10:00:00,\nbob@example.com,Bob,inactive,2024-01-01 10:00:00,2024-02-01 10:00:00\ncy@example.com,Cy,active,2024-01-01 10:00:00,2024-03-01 10:00:00\n',
    );
    const r = await email('beehiiv.csv', '--consent', 'yes', '--only-mapped', '--json');
    expect(r.code, r.stderr).toBe(3);
    expect(sent().map((s) => s.EmailAddress)).toEqual(['ann@example.com']);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 3, new: 1, rejected: 2, skipped: 2 });
  });

  it("Substack's email list: email_disabled true keeps the row back", async () => {
    writeFile(
      t.dir,
      'email_list.pub.csv',
      'email,active_subscription,expiry,plan,email_disabled,created_at,first_payment_at\n' +
        'ann@example.com,false,,other,false,2025-01-01T00:00:00.000Z,\nbob@example.com,true,2026-01-01,monthly,true,2025-01-01T00:00:00.000Z,2025-02-01T00:00:00.000Z\n',
    );
    const r = await email('email_list.pub.csv', '--consent', 'yes', '--only-mapped', '--allow-empty-names', '--json');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/Substack export recognised/);
    expect(sent().map((s) => s.EmailAddress)).toEqual(['ann@example.com']);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 2, new: 1, rejected: 1, skipped: 1, codes: { unsubscribed: 1 } });
  });

  it('HubSpot: Unsubscribed from all email and Marketing contact status', async () => {
    writeFile(
      t.dir,
      'hubspot.csv',
      'Record ID,First Name,Last Name,Email,Unsubscribed from all email,Marketing contact status\n' +
        '1,Ann,A,ann@example.com,false,Marketing contact\n2,Bob,B,bob@example.com,true,Marketing contact\n3,Cy,C,cy@example.com,,Non-marketing contact\n',
    );
    const r = await email('hubspot.csv', '--consent', 'yes', '--only-mapped', '--json');
    expect(r.code, r.stderr).toBe(3);
    expect(sent().map((s) => s.EmailAddress)).toEqual(['ann@example.com']);
    expect(JSON.parse(r.stdout).codes).toMatchObject({ unsubscribed: 1, 'no-permission': 1 });
  });

  it('a status column whose values cannot be read stops the import before sending, naming the column and the values', async () => {
    writeFile(t.dir, 'odd.csv', 'email,name,status\nann@example.com,Ann,active\nbob@example.com,Bob,frobbed\ncy@example.com,Cy,weird\ndee@example.com,Dee,weird\n');
    const r = await email('odd.csv', '--consent', 'yes');
    expect(r.code, r.stderr).toBe(2);
    expect(sent()).toHaveLength(0);
    expect(r.stderr).toMatch(/"status"/);
    expect(r.stderr).toMatch(/frobbed/);
    expect(r.stderr).toMatch(/weird/);
    expect(r.stderr).toMatch(/3 rows|3 values/);
  });

  it('--dry-run shows the decision: the export recognised and the column that decides', async () => {
    writeFile(t.dir, 'unsubscribed.csv', MAILCHIMP_UNSUBSCRIBED);
    const r = await email('unsubscribed.csv', '--consent', 'yes', '--only-mapped', '--dry-run');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/Mailchimp unsubscribed export/);
    expect(r.stderr).toMatch(/UNSUB_TIME.*2 rows/);
    expect(r.stdout).toMatch(/skipped/);
  });
});

describe('consent as exports write it', () => {
  it('TRUE/FALSE, 1/0, Y/N, opted in/out in any case are read as Yes/No', async () => {
    const values = ['TRUE', 'false', '1', '0', 'Y', 'n', 'Opted In', 'opt-out', 'YES', 'no'];
    writeFile(t.dir, 'consent.csv', 'email,name,consent\n' + values.map((v, i) => `p${i}@example.com,P ${i},${v}`).join('\n') + '\n');
    const r = await email('consent.csv', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(sent().map((s) => s.ConsentToTrack)).toEqual(['Yes', 'No', 'Yes', 'No', 'Yes', 'No', 'Yes', 'No', 'Yes', 'No']);
  });

  it('other values stop the import before sending, naming them', async () => {
    writeFile(t.dir, 'consent.csv', 'email,name,consent\nann@example.com,Ann,yes\nbob@example.com,Bob,maybe\ncy@example.com,Cy,perhaps\n');
    const r = await email('consent.csv');
    expect(r.code, r.stderr).toBe(2);
    expect(sent()).toHaveLength(0);
    expect(r.stderr).toMatch(/"consent"/);
    expect(r.stderr).toMatch(/maybe/);
    expect(r.stderr).toMatch(/perhaps/);
  });
});

describe("contact exports' address and name columns", () => {
  it('Google Contacts: E-mail 1 - Value beside E-mail 2 - Value, First Name + Last Name', async () => {
    writeFile(
      t.dir,
      'google.csv',
      'First Name,Middle Name,Last Name,Nickname,Labels,E-mail 1 - Label,E-mail 1 - Value,E-mail 2 - Label,E-mail 2 - Value\n' +
        'Ann,,Example,,* myContacts,* Home,ann@example.com,Work,ann@work.example.com\n',
    );
    const r = await email('google.csv', '--consent', 'yes', '--only-mapped');
    expect(r.code, r.stderr).toBe(0);
    expect(sent()).toMatchObject([{ EmailAddress: 'ann@example.com', Name: 'Ann Example' }]);
  });

  it('Google Contacts, older format: E-mail 1 - Value and its Name column', async () => {
    writeFile(
      t.dir,
      'google-old.csv',
      'Name,Given Name,Additional Name,Family Name,Group Membership,E-mail 1 - Type,E-mail 1 - Value\nAnn Example,Ann,,Example,* myContacts,* Home,ann@example.com\n',
    );
    const r = await email('google-old.csv', '--consent', 'yes', '--only-mapped');
    expect(r.code, r.stderr).toBe(0);
    expect(sent()).toMatchObject([{ EmailAddress: 'ann@example.com', Name: 'Ann Example' }]);
  });

  it('Thunderbird: Primary Email and Display Name', async () => {
    writeFile(t.dir, 'tb.csv', 'First Name,Last Name,Display Name,Nickname,Primary Email,Secondary Email\nAnn,Example,Ann E.,,ann@example.com,ann2@example.com\n');
    const r = await email('tb.csv', '--consent', 'yes', '--only-mapped');
    expect(r.code, r.stderr).toBe(0);
    expect(sent()).toMatchObject([{ EmailAddress: 'ann@example.com', Name: 'Ann E.' }]);
  });

  it('Outlook: E-mail Address beside E-mail 2 Address', async () => {
    writeFile(t.dir, 'outlook.csv', 'First Name,Middle Name,Last Name,E-mail Address,E-mail 2 Address,E-mail 3 Address\nAnn,,Example,ann@example.com,a2@example.com,\n');
    const r = await email('outlook.csv', '--consent', 'yes', '--only-mapped');
    expect(r.code, r.stderr).toBe(0);
    expect(sent()).toMatchObject([{ EmailAddress: 'ann@example.com', Name: 'Ann Example' }]);
  });

  it('no address column found: the hint names every column whose name holds "mail", however far right', async () => {
    const header = [...Array.from({ length: 30 }, (_, i) => `Col ${i}`), 'Work MAIL box', 'Col 31', 'mailing list'];
    writeFile(t.dir, 'wide.csv', `${header.join(',')}\n${header.map(() => 'x').join(',')}\n`);
    const r = await email('wide.csv', '--consent', 'yes');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/"Work MAIL box"/);
    expect(r.stderr).toMatch(/"mailing list"/);
  });
});

describe('two columns with one header', () => {
  it('refused when both would be sent, naming the header and both column numbers', async () => {
    writeFile(t.dir, 'dup.csv', 'email,name,Billing Contact,Company,Billing Contact\nann@example.com,Ann,x,Acme,y\n');
    const r = await email('dup.csv', '--consent', 'yes');
    expect(r.code, r.stderr).toBe(2);
    expect(sent()).toHaveLength(0);
    expect(r.stderr).toMatch(/columns 3 and 5 are all named "Billing Contact"/);
  });

  it('named on stderr when they are ignored, and the import goes on', async () => {
    writeFile(t.dir, 'dup.csv', 'email,name,Billing Contact,Company,Billing Contact\nann@example.com,Ann,x,Acme,y\n');
    const r = await email('dup.csv', '--consent', 'yes', '--only-mapped');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/columns 3 and 5 are all named "Billing Contact"/);
  });
});

describe("Mailchimp's TAGS", () => {
  it('a TAGS cell of quoted tags is sent as several values of TAGS, without the quote marks', async () => {
    writeFile(t.dir, 'tags.csv', '"Email Address","First Name",TAGS\nann@example.com,Ann,"""tag one"",""tag two"""\nbob@example.com,Bob,"""solo"""\n');
    const r = await email('tags.csv', '--consent', 'yes');
    expect(r.code, r.stderr).toBe(0);
    const [ann, bob] = sent();
    expect(ann!.CustomFields).toEqual([
      { Key: 'TAGS', Value: 'tag one' },
      { Key: 'TAGS', Value: 'tag two' },
    ]);
    expect(bob!.CustomFields).toEqual([{ Key: 'TAGS', Value: 'solo' }]);
  });
});
