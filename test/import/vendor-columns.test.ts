// What vendors' columns mean (CLI.md "What a file means"): the address
// columns of contact exports, two columns under one header, status and
// permission columns, consent words, Mailchimp's TAGS.
import { describe, expect, it } from 'vitest';
import { planMapping } from '../../src/import/mapping.js';
import { duplicateHeaders } from '../../src/import/prescan.js';
import { findStatusColumns, readStatus } from '../../src/import/status-columns.js';
import { splitQuotedTags } from '../../src/import/vendor-columns.js';
import { parseConsent } from '../../src/validation/subscriber-fields.js';

const plan = (header: string[], map: string[] = [], onlyMapped = false) => planMapping(header, map, 'x.csv', { onlyMapped });
const emailHeader = (header: string[]) => header[plan(header).emailColumn];

describe("contact exports' address columns", () => {
  it.each([
    ['Google Contacts', ['First Name', 'Last Name', 'E-mail 1 - Label', 'E-mail 1 - Value', 'E-mail 2 - Label', 'E-mail 2 - Value'], 'E-mail 1 - Value'],
    ['Thunderbird', ['First Name', 'Last Name', 'Display Name', 'Primary Email', 'Secondary Email'], 'Primary Email'],
    ['Outlook', ['First Name', 'Last Name', 'E-mail Address', 'E-mail 2 Address', 'E-mail 3 Address'], 'E-mail Address'],
    ['LinkedIn connections', ['First Name', 'Last Name', 'URL', 'Email Address', 'Company', 'Position', 'Connected On'], 'Email Address'],
    ['"E-Mail"', ['Name', 'E-Mail'], 'E-Mail'],
    ['"Email 1"', ['Name', 'Email 1', 'Email 2'], 'Email 1'],
  ])('%s', (_vendor, header, expected) => {
    expect(emailHeader(header)).toBe(expected);
  });

  it('Google names: Given Name + Family Name when there is no Name column; Thunderbird: Display Name', () => {
    const google = plan(['Given Name', 'Additional Name', 'Family Name', 'E-mail 1 - Value']);
    expect(google.nameColumns).toEqual([0, 2]);
    const thunderbird = plan(['First Name', 'Last Name', 'Display Name', 'Primary Email']);
    expect(thunderbird.nameColumns).toEqual([2]);
  });

  it('no address column: the hint names every column whose name holds "mail", in any case, however many columns come first', () => {
    const header = [...Array.from({ length: 40 }, (_, i) => `c${i}`), 'Work MAIL box', 'x', 'mailing list'];
    let hint: string | undefined;
    try {
      plan(header);
    } catch (err) {
      hint = (err as { hint?: string }).hint;
    }
    expect(hint).toMatch(/"Work MAIL box" \(column 41\), "mailing list" \(column 43\): name the one with --map/);
  });
});

describe('two columns under one header', () => {
  it('refused when both would be sent, naming the header and both column numbers', () => {
    const p = plan(['email', 'Billing Contact', 'name', 'Billing Contact']);
    expect(() => duplicateHeaders(p, 'x.csv')).toThrow(/columns 2 and 4 are all named "Billing Contact"/);
  });

  it('named, not refused, when at most one of them is sent', () => {
    expect(duplicateHeaders(plan(['email', 'Billing Contact', 'name', 'Billing Contact'], [], true), 'x.csv')).toMatch(/columns 2 and 4 are all named "Billing Contact": none of them is sent/);
    expect(duplicateHeaders(plan(['email', 'name', 'Company'], []), 'x.csv')).toBeUndefined();
  });

  it('--map "Header=-" sets aside every column of that name', () => {
    const p = plan(['email', 'Billing Contact', 'name', 'Billing Contact'], ['Billing Contact=-']);
    expect(p.columns.filter((c) => c.header === 'Billing Contact').map((c) => c.target)).toEqual(['ignore', 'ignore']);
    expect(duplicateHeaders(p, 'x.csv')).toMatch(/none of them is sent/);
  });
});

describe('status and permission columns', () => {
  const columns = (header: string[], map: string[] = []) => findStatusColumns(plan(header, map));
  const read = (header: string[], value: string) => readStatus(columns(header)[0]!, value);

  it('finds the columns vendors write, not those --map names nor the address, name or consent', () => {
    expect(columns(['Email Address', 'UNSUB_TIME', 'UNSUB_REASON']).map((c) => [c.header, c.format])).toEqual([['UNSUB_TIME', 'Mailchimp unsubscribed export']]);
    expect(columns(['Email Address', 'CLEAN_TIME']).map((c) => c.code)).toEqual(['cleaned']);
    expect(columns(['Email', 'Accepts Email Marketing']).map((c) => c.format)).toEqual(['Shopify customers export']);
    expect(columns(['Email', 'Opted out of email: Marketing Information']).map((c) => c.format)).toEqual(['HubSpot contacts export']);
    expect(columns(['email', 'status', 'unsubscribed_at']).map((c) => c.header)).toEqual(['status', 'unsubscribed_at']);
    expect(columns(['email', 'status'], ['status=-'])).toEqual([]);
    expect(columns(['email', 'name', 'company'])).toEqual([]);
  });

  it('reads their values; an empty cell never keeps a row back; a value it cannot read is null', () => {
    expect(read(['email', 'UNSUB_TIME'], '2019-03-01 08:00:00')).toBe('unsubscribed');
    expect(read(['email', 'UNSUB_TIME'], '')).toBe('');
    expect(read(['email', 'Accepts Email Marketing'], 'no')).toBe('no-permission');
    expect(read(['email', 'Accepts Email Marketing'], 'Yes')).toBe('');
    expect(read(['email', 'Unsubscribed from all email'], 'true')).toBe('unsubscribed');
    expect(read(['email', 'Unsubscribed from all email'], 'FALSE')).toBe('');
    expect(read(['email', 'status'], 'Active')).toBe('');
    expect(read(['email', 'status'], 'inactive')).toBe('unsubscribed');
    expect(read(['email', 'status'], 'cleaned')).toBe('cleaned');
    expect(read(['email', 'status'], 'Hard-Bounce')).toBe('bounced');
    expect(read(['email', 'status'], 'pending')).toBe('no-permission');
    expect(read(['email', 'Marketing contact status'], 'Non-marketing contact')).toBe('no-permission');
    expect(read(['email', 'status'], 'frobbed')).toBeNull();
    expect(read(['email', 'opt-in'], 'maybe')).toBeNull();
  });
});

describe('consent and tags', () => {
  it.each([
    ['Yes', 'Yes'], ['TRUE', 'Yes'], ['1', 'Yes'], ['y', 'Yes'], ['Opted In', 'Yes'], ['opt-in', 'Yes'],
    ['No', 'No'], ['false', 'No'], ['0', 'No'], ['N', 'No'], ['opted out', 'No'], ['Opt-Out', 'No'],
    ['unchanged', 'Unchanged'], ['', undefined], ['maybe', null],
  ])('consent %j is %j', (cell, expected) => {
    expect(parseConsent(cell, true)).toBe(expected);
  });

  it('Mailchimp TAGS: "a","b" is two tags; anything else is not a quoted list', () => {
    expect(splitQuotedTags('"tag one","tag two"')).toEqual(['tag one', 'tag two']);
    expect(splitQuotedTags('"say ""hi""", "b"')).toEqual(['say "hi"', 'b']);
    expect(splitQuotedTags('vip, wholesale')).toBeUndefined();
    expect(splitQuotedTags('"open')).toBeUndefined();
  });
});
