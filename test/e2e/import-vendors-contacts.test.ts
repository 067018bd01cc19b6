// Contact and shop exports (test/fixtures/vendors/SOURCES.md: built from each
// vendor's column list, as no real export could be had under a permissive
// licence) imported through bin/email as a new user would, with --consent yes.
// The address column is found under the name each vendor writes (CLI.md
// "What a file means"), every address is sent once with its name, rows
// without an address are rejected, and the failures file imported again
// sends nothing twice. Shopify's `Accepts Email Marketing` and HubSpot's
// unsubscribe column are honoured (summary `skipped`, `--include-unsubscribed`),
// a HubSpot value over 250 characters costs the value, not the contact
// (Outcome `partial`, `--strict` rejects the row), and `Create Date` is named
// as a date-time.
import { describe, expect, it } from 'vitest';
import { machineLines } from '../helpers/cli.js';
import { LIST, expectRoundTrip, expectSentOnce, expectSkipNamed, outcomes, vendorImporter } from '../helpers/import-vendors.js';
import { sandboxPerTest } from '../helpers/sandbox.js';

const t = sandboxPerTest();
const importFile = vendorImporter(t);
const stored = (address: string) => t.sandbox.state().lists[LIST]!.Subscribers[address];
const CONSENT = ['--consent', 'yes'];

describe('Google Contacts: a Google CSV export (UTF-16 with a BOM)', () => {
  const FILE = 'google/google-csv.built.csv';

  it('E-mail 1 - Value is the address; every contact with one sent once, with its name; the one without rejected', async () => {
    const run = await importFile(FILE, CONSENT);
    expect(run.code, run.stderr).toBe(3);
    expect(run.summary).toMatchObject({ rows: 4, rejected: 1, encoding: 'utf16le' });
    expectSentOnce(run, ['ada.lovelace@example.com', 'zoe.omega@example.com', 'grace.hopper@example.com']);
    expect(stored('zoe.omega@example.com')?.Name).toBe('Zoë Ωmega');
    expect(stored('grace.hopper@example.com')?.Name).toBe('Grace Hopper');
    expect(run.values('grace.hopper@example.com', 'Notes')).toEqual(['Met at the\nconference']);
    expect(run.values('ada.lovelace@example.com', 'Birthday')).toEqual(['1815/12/10']);
    expect(outcomes(run)).toEqual(['4 rejected']);
  });

  it('the failures file (UTF-8 with a BOM) imported again sends nothing', async () => {
    await expectRoundTrip(importFile, await importFile(FILE, CONSENT), 'E-mail 1 - Value', CONSENT);
  });

  it('with its address column left out, the hint names every column whose name holds "mail"', async () => {
    const run = await importFile(FILE, [...CONSENT, '--map', 'E-mail 1 - Value=-']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.sent).toEqual([]);
    const hint = String(machineLines(run.stderr).at(-1)?.hint ?? '');
    expect(hint, run.stderr).toContain('E-mail 1 - Label');
    expect(hint).toContain('E-mail 1 - Value');
  });
});

describe('Outlook: an Outlook CSV export', () => {
  const FILE = 'outlook/outlook-csv.built.csv';

  it('E-mail Address is the address; every contact with one sent once, with its name; the month-first birthday read', async () => {
    const run = await importFile(FILE, CONSENT);
    expect(run.code, run.stderr).toBe(3);
    expect(run.summary).toMatchObject({ rows: 4, rejected: 1 });
    expectSentOnce(run, ['ada.lovelace@example.com', 'alan.turing@example.com', 'edsger.dijkstra@example.com']);
    expect(stored('alan.turing@example.com')?.Name).toBe('Alan Turing');
    expect(run.values('ada.lovelace@example.com', 'Birthday')).toEqual(['1815/12/20']);
    expect(run.values('alan.turing@example.com', 'Job Title')).toEqual(['Fellow']);
    expect(outcomes(run)).toEqual(['5 rejected']);
  });

  it('the failures file imported again sends nothing', async () => {
    await expectRoundTrip(importFile, await importFile(FILE, CONSENT), 'E-mail Address', CONSENT);
  });
});

describe('Outlook 2003: a real export, whose rows stop after their last filled cell', () => {
  const FILE = 'outlook/outlook-2003.csv';

  it('rows with fewer cells than the header are rejected (missing-fields), nothing sent, each named by its line', async () => {
    const run = await importFile(FILE, CONSENT);
    expect(run.code, run.stderr).toBe(2);
    expect(run.sent).toEqual([]);
    expect(run.failures.map((r) => `${r.Line} ${r.Outcome} ${r.Code}`)).toEqual(['2 rejected missing-fields', '3 rejected missing-fields']);
    expect(run.failures.map((r) => r.cells['E-mail Address'])).toEqual(['RodgerRabbit@StealMyShoes.com', 'Fake@email.com']);
  });

  it('the failures file, whose rows it fills out to the header, imported again sends each person once', async () => {
    const run = await importFile(FILE, CONSENT);
    const again = await importFile(run.failuresFile, CONSENT);
    expect(new Set(again.sent.map((s) => s.EmailAddress)).size).toBe(again.sent.length);
    for (const s of again.sent) expect(stored(s.EmailAddress.toLowerCase())?.Name).toMatch(/^(Tom Jerry|Money McGee)$/);
  });
});

describe('Thunderbird: an address book exported as comma-separated text', () => {
  const FILE = 'thunderbird/thunderbird.built.csv';

  it('Primary Email is the address, Display Name the name; the unnamed last column is no extra field', async () => {
    const run = await importFile(FILE, CONSENT);
    expect(run.code, run.stderr).toBe(0);
    expectSentOnce(run, ['ada.lovelace@example.com', 'linus@example.org', 'support@example.net']);
    expect(stored('ada.lovelace@example.com')?.Name).toBe('Ada Lovelace');
    expect(stored('support@example.net')?.Name).toBe('Support desk');
    expect(run.values('linus@example.org', 'Secondary Email')).toEqual(['linus.work@example.org']);
    expect(run.summary).toMatchObject({ rows: 3, new: 3, rejected: 0 });
  });
});

describe('Shopify: a customers export', () => {
  const FILE = 'shopify/customers.built.csv';

  it('customers who accept email marketing sent once; the others skipped, named by Accepts Email Marketing', async () => {
    const run = await importFile(FILE, CONSENT);
    expect(run.code, run.stderr).toBe(3);
    expectSentOnce(run, ['ada.lovelace@example.com', 'grace.hopper@example.com']);
    expect(stored('grace.hopper@example.com')?.Name).toBe('Grace Hopper');
    expect(run.values('ada.lovelace@example.com', 'Tags')).toEqual(['vip, newsletter']);
    expect(run.summary).toMatchObject({ skipped: 2 });
    expect(outcomes(run)).toEqual(['3 skipped', '5 skipped']);
    expectSkipNamed(run, 'Accepts Email Marketing');
  });

  it('the failures file imported again keeps them unsent', async () => {
    await expectRoundTrip(importFile, await importFile(FILE, CONSENT), 'Email', CONSENT);
  });

  it('--include-unsubscribed sends every customer once', async () => {
    const run = await importFile(FILE, [...CONSENT, '--include-unsubscribed']);
    expect(run.code, run.stderr).toBe(0);
    expectSentOnce(run, ['ada.lovelace@example.com', 'alan.turing@example.com', 'grace.hopper@example.com', 'edsger.dijkstra@example.com']);
  });

  it('--dry-run shows the decision and sends nothing', async () => {
    const run = await importFile(FILE, [...CONSENT, '--dry-run']);
    // A dry run exits as the import would: 3, some rows would not be imported.
    expect(run.code, run.stderr).toBe(3);
    expect(run.sent).toEqual([]);
    expect(run.summary).toMatchObject({ dryRun: true, skipped: 2 });
  });
});

describe('HubSpot: a contacts export', () => {
  const FILE = 'hubspot/contacts.built.csv';
  const LONG = 'First Page Seen';

  it('a value over 250 characters costs the value, not the contact: sent without it, listed as partial', async () => {
    const run = await importFile(FILE, CONSENT);
    expect(run.code, run.stderr).toBe(3);
    expectSentOnce(run, ['ada.lovelace@example.com', 'grace.hopper@example.com']);
    expect(run.values('ada.lovelace@example.com', LONG)).toEqual([]);
    expect(run.values('grace.hopper@example.com', LONG)).toEqual(['https://www.example.com/pricing']);
    expect(stored('ada.lovelace@example.com')?.Name).toBe('Ada Lovelace');
    expect(run.summary).toMatchObject({ partial: 1, skipped: 1 });
    expect(run.failures.find((r) => r.Line === '2')).toMatchObject({ Outcome: 'partial' });
    expect(run.failures.find((r) => r.Line === '2')?.Message).toContain(LONG);
    // One line for the column: how many values were left out, why (250), and the remedies.
    expect(run.messages.split('\n').filter((l) => l.includes(LONG) && l.includes('250') && /--only-mapped|--map/.test(l))).toHaveLength(1);
  });

  it('the contact marked Unsubscribed from all email is skipped; --include-unsubscribed sends it', async () => {
    const run = await importFile(FILE, CONSENT);
    expect(outcomes(run)).toContain('3 skipped');
    expectSkipNamed(run, 'Unsubscribed from all email');
    const all = await importFile(FILE, [...CONSENT, '--include-unsubscribed']);
    expect(all.sent.map((s) => s.EmailAddress)).toContain('alan.turing@example.com');
  });

  it('--strict rejects the row with the long value whole', async () => {
    const run = await importFile(FILE, [...CONSENT, '--strict']);
    expectSentOnce(run, ['grace.hopper@example.com']);
    expect(run.failures.find((r) => r.Line === '2')).toMatchObject({ Outcome: 'rejected', Code: 'too-long' });
  });

  it('Create Date is named once as a date-time; --date-only sends its date', async () => {
    const run = await importFile(FILE, CONSENT);
    expect(run.messages.split('\n').filter((l) => l.includes('Create Date') && l.includes('--date-only'))).toHaveLength(1);
    const dated = await importFile(FILE, [...CONSENT, '--date-only']);
    expect(dated.values('grace.hopper@example.com', 'Create Date')).toEqual(['2024/03/20']);
  });

  it('the failures file imported again sends only the partial row, nothing else twice', async () => {
    await expectRoundTrip(importFile, await importFile(FILE, CONSENT), 'Email', CONSENT);
  });
});
