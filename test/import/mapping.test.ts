import { describe, expect, it } from 'vitest';
import { planMapping } from '../../src/import/mapping.js';
import { RowBuilder } from '../../src/import/rows.js';

describe('planMapping: the name', () => {
  it('joins First Name then Last Name whatever their order in the file (CLI.md: First Name + Last Name)', () => {
    const plan = planMapping(['email', 'Last Name', 'First Name', 'consent'], [], 'n.csv');
    expect(plan.nameColumns).toEqual([2, 1]);
    const entry = new RowBuilder(plan, {}).build(['ann@example.org', 'Lovelace', 'Ada', 'yes']);
    expect(entry).toMatchObject({ Name: 'Ada Lovelace' });
  });

  it('keeps the file order for columns --map names Name', () => {
    const plan = planMapping(['email', 'B', 'A'], ['B=Name', 'A=Name'], 'n.csv');
    expect(plan.nameColumns).toEqual([1, 2]);
  });
});

describe('header mapping', () => {
  it('recognises the common spellings, joins First Name + Last Name, and keeps the rest as custom fields', () => {
    const plan = planMapping(['Email Address', 'First Name', 'Last Name', 'Company', 'CONSENT'], [], 'x.csv');
    expect(plan).toMatchObject({ emailColumn: 0, nameColumns: [1, 2], consentColumn: 4, fieldColumns: [{ index: 3, key: 'Company' }] });
  });
  it('a Name column wins over First/Last, which then become custom fields', () => {
    const plan = planMapping(['e-mail', 'Name', 'first_name'], [], 'x.csv');
    expect(plan).toMatchObject({ emailColumn: 0, nameColumns: [1], fieldColumns: [{ index: 2, key: 'first_name' }] });
  });
  it('--map decides for the columns it names (case-insensitively), - ignores one, the rest is matched as usual', () => {
    const plan = planMapping(['Work Mail', 'Notes', 'Full Name', 'Tier'], ['work mail=EmailAddress', 'Notes=-', 'Tier=[Plan]'], 'x.csv');
    expect(plan).toMatchObject({ emailColumn: 0, nameColumns: [2], fieldColumns: [{ index: 3, key: '[Plan]' }] });
    expect(plan.columns[1]).toMatchObject({ target: 'ignore', source: 'map' });
  });
  it('--only-mapped ignores the columns that neither --map nor the header matching maps (issue 13.15)', () => {
    const header = ['Email Address', 'First Name', 'Last Name', 'LEID', 'EUID', 'OPTIN_IP', 'Plan'];
    const plan = planMapping(header, ['Plan=[Plan]'], 'mailchimp.csv', { onlyMapped: true });
    expect(plan).toMatchObject({ emailColumn: 0, nameColumns: [1, 2], fieldColumns: [{ index: 6, key: '[Plan]' }] });
    expect(plan.columns.filter((c) => c.target === 'ignore').map((c) => [c.header, c.source])).toEqual([
      ['LEID', 'only-mapped'],
      ['EUID', 'only-mapped'],
      ['OPTIN_IP', 'only-mapped'],
    ]);
  });

  it('ignores the four columns a failures file adds, so a fixed failures file imports as it is', () => {
    const plan = planMapping(['email', 'Company', 'Line', 'Outcome', 'Code', 'Message'], [], 'failed.csv');
    expect(plan.fieldColumns).toEqual([{ index: 1, key: 'Company' }]);
  });
  it('refuses a file without an email column, listing its columns (exit 2)', () => {
    expect(() => planMapping(['name', 'company'], [], 'people.csv')).toThrow('people.csv: no email column');
  });
  it('refuses two columns that could both be the address, and a --map naming no column', () => {
    expect(() => planMapping(['email', 'Email Address'], [], 'x.csv')).toThrow(/several columns could be the email address/);
    expect(() => planMapping(['email'], ['Mail=EmailAddress'], 'x.csv')).toThrow(/has no column "Mail"/);
    expect(() => planMapping(['email'], ['email'], 'x.csv')).toThrow(/--map must be Column=Target/);
  });
});
