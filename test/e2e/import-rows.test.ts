// What an import sends and says, through the real binary: a row without a name
// replaces a stored name (service-spec.md "Import request": Name is required,
// and the service updates an existing subscriber's name with what is sent), so
// the import says so before it sends; rows with fewer or more cells than the
// header are refused alike; columns sent as custom fields are named with what
// the service does with keys the list does not define.
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
const storedName = (address: string) => t.sandbox.state().lists[LIST.toLowerCase()]!.Subscribers[address]?.Name;
const storedFields = (address: string) => t.sandbox.state().lists[LIST.toLowerCase()]!.Subscribers[address]?.CustomFields;
/** The messages on stderr, one a line: as --json writes them (one JSON object a line) or as people read them. */
const messages = (stderr: string) =>
  stderr
    .split('\n')
    .filter(Boolean)
    .map((line) => (line.startsWith('{') ? (JSON.parse(line) as { message: string }).message : line));

/** Three subscribers imported with their names. */
async function importNamed(): Promise<void> {
  writeFile(t.dir, 'named.csv', 'email,name,consent\nann@example.com,Ann Example,yes\nbob@example.com,Bob Example,yes\ncy@example.com,Cy Example,yes\n');
  const r = await email('named.csv', '--json');
  expect(r.code, r.stderr).toBe(0);
  expect(storedName('bob@example.com')).toBe('Bob Example');
}

describe('names: an import never empties a stored name unasked (asked as consent is)', () => {
  it('an address-only file stops before anything is sent (exit 2), saying how many rows and naming --allow-empty-names; the stored names stay', async () => {
    await importNamed();
    writeFile(t.dir, 'addresses.csv', 'email,consent\nann@example.com,yes\nbob@example.com,yes\ncy@example.com,yes\n');
    const before = t.sandbox.requestCount();
    const r = await email('addresses.csv', '--json');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(t.sandbox.requestCount(), 'nothing sent').toBe(before);
    const lines = messages(r.stderr).filter((l) => /Name/.test(l));
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/addresses\.csv has no name column: its 3 rows would be sent with an empty Name/);
    expect(lines[0]).toMatch(/replaces the name of an existing subscriber/);
    expect(lines[0]).toMatch(/give --allow-empty-names to send them as they are/);
    expect(r.stderr).toMatch(/--map \\"<Column>=Name\\"/);
    expect(storedName('bob@example.com')).toBe('Bob Example');
  });

  it('--allow-empty-names sends them as they are: the line before the first batch, the names emptied as the service does, emptyNames counted', async () => {
    await importNamed();
    writeFile(t.dir, 'addresses.csv', 'email,consent\nann@example.com,yes\nbob@example.com,yes\ncy@example.com,yes\n');
    const before = t.sandbox.requestCount();
    const r = await email('addresses.csv', '--json', '--allow-empty-names');
    expect(r.code, r.stderr).toBe(0);
    const lines = messages(r.stderr).filter((l) => /Name/.test(l));
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/addresses\.csv has no name column: every row \(up to 3\) is sent with an empty Name/);
    // Sandbox and spec agree: Name is required, and what is sent replaces the stored name.
    expect(importRequests(t.sandbox, before)[0]!.body.Subscribers[0]).toMatchObject({ EmailAddress: 'ann@example.com', Name: '' });
    expect(storedName('bob@example.com')).toBe('');
    const summary = JSON.parse(r.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: 3, existing: 3, emptyNames: 3 });
  });

  it('empty name cells stop the import before the first batch, counting the rows and naming the first line, even when it is far into the file', async () => {
    await importNamed();
    const filler = Array.from({ length: 3000 }, (_, i) => `p${i}@example.com,"Person, ${i}",yes`).join('\n');
    writeFile(t.dir, 'some.csv', `email,name,consent\n${filler}\nann@example.com,Ann Again,yes\nbob@example.com,,yes\n"cy@example.com",  ,yes\n`);
    const before = t.sandbox.requestCount();
    const r = await email('some.csv');
    expect(r.code, r.stderr).toBe(2);
    expect(t.sandbox.requestCount(), 'nothing sent').toBe(before);
    const lines = messages(r.stderr).filter((l) => /empty Name/.test(l));
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/some\.csv: 2 rows have an address and an empty name cell \(name; the first at line 3003\) and would be sent with an empty Name/);
    expect(lines[0]).toMatch(/--allow-empty-names/);
    expect(storedName('bob@example.com')).toBe('Bob Example');

    const sent = await email('some.csv', '--allow-empty-names');
    expect(sent.code, sent.stderr).toBe(0);
    expect(messages(sent.stderr).filter((l) => /empty Name/.test(l))[0]).toMatch(/line 3003 of some\.csv has an empty name cell \(name\): rows like it are sent with an empty Name/);
    expect(sent.stdout).toMatch(/Empty Name sent\s+2 rows/);
    expect(storedName('ann@example.com')).toBe('Ann Again');
    expect(storedName('bob@example.com')).toBe('');
  });

  it('First Name + Last Name: a row is nameless only when both are empty', async () => {
    writeFile(t.dir, 'parts.csv', 'First Name,email,Last Name,consent\n,ann@example.com,Example,yes\nBob,bob@example.com,,yes\n,cy@example.com,,yes\n');
    const r = await email('parts.csv', '--dry-run');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/parts\.csv: 1 row has an address and empty name cells \(First Name \+ Last Name; the first at line 4\)/);
  });

  it('--dry-run says it too (exit 2), and with --allow-empty-names counts the rows', async () => {
    writeFile(t.dir, 'addresses.csv', 'email,consent\nann@example.com,yes\nbob@example.com,yes\n');
    const r = await email('addresses.csv', '--dry-run');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/addresses\.csv has no name column: its 2 rows would be sent with an empty Name.*--allow-empty-names/);
    const allowed = await email('addresses.csv', '--dry-run', '--allow-empty-names');
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toMatch(/addresses\.csv has no name column: every row \(up to 2\) would be sent with an empty Name/);
    expect(allowed.stdout).toMatch(/Empty Name \(would send\)\s+2 rows/);
    const json = await email('addresses.csv', '--dry-run', '--json', '--allow-empty-names');
    expect(JSON.parse(json.stdout)).toMatchObject({ wouldSend: 2, emptyNames: 2 });
  });

  it('a file whose every row has its name says nothing about names', async () => {
    writeFile(t.dir, 'named.csv', 'email,name,consent\nann@example.com,Ann,yes\n,,\nbad-row-without-address,,yes\n');
    const r = await email('named.csv', '--json');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).not.toMatch(/empty Name/);
    expect(JSON.parse(r.stdout).emptyNames).toBe(0);
  });
});

describe('rows with fewer or more cells than the header are treated alike', () => {
  it('both are rejected, nothing of them sent, each with a reason naming the counts; --dry-run lists both', async () => {
    await importNamed();
    writeFile(t.dir, 'ragged.csv', 'email,name,consent\nann@example.com,yes\nbob@example.com,Bob,yes,surplus\ncy@example.com,Cy,yes\n');
    const dry = await email('ragged.csv', '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(3);
    const report = JSON.parse(dry.stdout);
    expect(report.problems).toEqual([
      expect.objectContaining({ Line: 2, Outcome: 'rejected', Code: 'missing-fields', Message: expect.stringMatching(/the row has 2 fields and the header 3/) }),
      expect.objectContaining({ Line: 3, Outcome: 'rejected', Code: 'extra-fields', Message: expect.stringMatching(/the row has 4 fields and the header 3/) }),
    ]);
    const before = t.sandbox.requestCount();
    const r = await email('ragged.csv', '--json');
    expect(r.code, r.stderr).toBe(3);
    const summary = JSON.parse(r.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: 3, existing: 1, rejected: 2 });
    expect(importRequests(t.sandbox, before).flatMap((q) => q.body.Subscribers.map((s) => s.EmailAddress))).toEqual(['cy@example.com']);
    // The short row would have sent Ann's consent as her name, or emptied it: it changed nothing.
    expect(storedName('ann@example.com')).toBe('Ann Example');
  });
});

describe('columns sent as custom fields', () => {
  it('the line before the first batch says the service ignores keys the list does not define, and names customfields create', async () => {
    writeFile(t.dir, 'fields.csv', 'email,name,consent,Company,Shoe Size,Plan\nann@example.com,Ann,yes,Acme,42,Gold\n');
    const r = await email('fields.csv', '--json');
    expect(r.code, r.stderr).toBe(0);
    const lines = messages(r.stderr).filter((l) => /custom field/.test(l));
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/3 columns are sent as custom fields because nothing maps them: Company, Shoe Size, Plan/);
    expect(lines[0]).toMatch(/the service ignores a key the list does not define, and a value that is not one of a field's options/);
    expect(lines[0]).toMatch(/email customfields create --list \S+ --name "Company"/);
    expect(lines[0]).toMatch(/--only-mapped/);
    // As the sandbox does it (the spec gives no error for either): Company kept, Shoe Size and the unknown option dropped.
    expect(storedFields('ann@example.com')).toEqual({ '[Company]': ['Acme'] });
  });
});

describe('a value that cannot be sent costs the value, not the subscriber', () => {
  const long = (n: number) => `https://example.com/${'p'.repeat(n - 20)}`;
  const failuresRows = (name: string) => {
    const [head, ...rows] = readFileSync(join(t.dir, name), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    return { head, rows };
  };

  it('the subscriber is imported without it; a line per column names every such column with --only-mapped and --map; the failures file lists the rows as partial', async () => {
    writeFile(
      t.dir,
      'hubspot.csv',
      'email,name,consent,First Page Seen,Last Page Seen,Birthday\n' +
        `ann@example.com,Ann,yes,${long(335)},${long(364)},1990-01-01\n` +
        'bob@example.com,Bob,yes,https://example.com/,https://example.com/b,31/02/1990\n' +
        'cy@example.com,Cy,yes,https://example.com/,https://example.com/c,1990-02-03\n',
    );
    const before = t.sandbox.requestCount();
    const r = await email('hubspot.csv', '--json', '--failures', 'failed.csv');
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: 3, new: 3, rejected: 0, partial: 2 });
    const sent = importRequests(t.sandbox, before).flatMap((q) => q.body.Subscribers as unknown as { EmailAddress: string; CustomFields: { Key: string }[] }[]);
    expect(sent.map((s) => s.EmailAddress)).toEqual(['ann@example.com', 'bob@example.com', 'cy@example.com']);
    expect(sent[0]!.CustomFields.map((f) => f.Key)).toEqual(['Birthday']);
    expect(sent[1]!.CustomFields.map((f) => f.Key)).toEqual(['First Page Seen', 'Last Page Seen']);
    const lines = messages(r.stderr).filter((l) => /left out/.test(l));
    expect(lines, r.stderr).toHaveLength(3);
    expect(lines[0]).toMatch(/column "First Page Seen": 1 value was left out \(over 250 characters\); its subscriber is imported without it/);
    expect(lines[1]).toMatch(/column "Last Page Seen": 1 value was left out \(over 250 characters\)/);
    expect(lines[2]).toMatch(/column "Birthday": 1 value was left out \(not a date\)/);
    for (const line of lines) expect(line).toMatch(/--only-mapped or --map "[^"]+=-"/);
    const { head, rows } = failuresRows('failed.csv');
    expect(head).toBe('email,name,consent,First Page Seen,Last Page Seen,Birthday,Line,Outcome,Code,Message');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^ann@example\.com,.*,2,partial,too-long,imported without these values: First Page Seen is 335 characters long; the service's limit is 250; Last Page Seen is 364/);
    expect(rows[1]).toMatch(/^bob@example\.com,.*,3,partial,invalid-date,"imported without this value: Birthday ""31\/02\/1990"" is not a date/);

    // Fixed and imported again, a partial row is sent whole (it is not skipped as a duplicate is).
    writeFile(t.dir, 'fixed.csv', readFileSync(join(t.dir, 'failed.csv'), 'utf8').replace(long(335), 'https://example.com/first').replace(long(364), 'https://example.com/last').replace('31/02/1990', '28/02/1990'));
    const again0 = t.sandbox.requestCount();
    const again = await email('fixed.csv', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ rows: 2, existing: 2, partial: 0, duplicates: 0 });
    const resent = importRequests(t.sandbox, again0).flatMap((q) => q.body.Subscribers as unknown as { EmailAddress: string; CustomFields: { Key: string; Value: string }[] }[]);
    expect(resent[0]!.CustomFields).toEqual(expect.arrayContaining([{ Key: 'First Page Seen', Value: 'https://example.com/first' }, { Key: 'Birthday', Value: '1990/01/01' }]));
    expect(resent[1]!.CustomFields).toEqual(expect.arrayContaining([{ Key: 'Birthday', Value: '1990/02/28' }]));
  });

  it('--strict refuses such rows whole, as before; a bad address or consent still refuses the row', async () => {
    writeFile(t.dir, 'long.csv', `email,name,consent,Notes\nann@example.com,Ann,yes,${long(300)}\nbob@example.com,Bob,yes,short\nnot-an-address,Cy,yes,x\ndee@example.com,Dee,,x\n`);
    const r = await email('long.csv', '--json', '--strict');
    expect(r.code, r.stderr).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 4, new: 1, rejected: 3, partial: 0, codes: { 'too-long': 1, '1': 1, '214': 1 } });
    const lenient = await email('long.csv', '--json', '--dry-run');
    expect(lenient.code, lenient.stderr).toBe(3);
    const report = JSON.parse(lenient.stdout);
    expect(report).toMatchObject({ wouldSend: 2, rejected: 2, partial: 1 });
    expect(report.problems).toEqual(expect.arrayContaining([expect.objectContaining({ Line: 2, Outcome: 'partial', Code: 'too-long' })]));
    expect(messages(lenient.stderr).find((l) => /left out/.test(l))).toMatch(/^column "Notes": 1 value would be left out \(over 250 characters\); its subscriber would be sent without it: leave the column out with --only-mapped or --map "Notes=-"/);
  });

  it('for people: the summary counts the rows imported without a value, and the failures file row says partial', async () => {
    writeFile(t.dir, 'long.csv', `email,name,consent,Notes\nann@example.com,Ann,yes,${long(300)}\n`);
    const r = await email('long.csv', '--failures', 'f.csv');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Imported without a value\s+1 row \(partial/);
    expect(r.stdout).toMatch(/f\.csv \(1 row: 1 partial\)/);
    expect(r.stderr).not.toMatch(/Rows not imported/);
  });
});

describe('invisible characters in addresses', () => {
  it('zero-width characters and soft hyphens are cleaned with one notice naming them by code point; a no-break space inside is refused, shown by code point on stderr and in the failures file', async () => {
    writeFile(
      t.dir,
      'pasted.csv',
      'email,name,consent\n' +
        'zw\u200Bsp@example.com,Zed,yes\n' +
        '\u2060soft\u00ADhy@example.com\u200D,Sue,yes\n' +
        'nb\u00A0sp@example.com,Nab,yes\n' +
        'plain@example.com,Pat,yes\n',
    );
    const before = t.sandbox.requestCount();
    const r = await email('pasted.csv', '--failures', 'failed.csv');
    expect(r.code, r.stderr).toBe(3);
    const sent = importRequests(t.sandbox, before).flatMap((q) => q.body.Subscribers.map((s) => s.EmailAddress));
    expect(sent).toEqual(['zwsp@example.com', 'softhy@example.com', 'plain@example.com']);
    const notices = messages(r.stderr).filter((l) => /invisible/.test(l));
    expect(notices, r.stderr).toHaveLength(1);
    expect(notices[0]).toMatch(/2 addresses of pasted\.csv held invisible characters \(U\+00AD, U\+200B, U\+200D, U\+2060\).*sent without them/);
    expect(r.stderr).toContain('invalid email address "nb<U+00A0>sp@example.com"');
    expect(r.stderr).not.toContain('\u00A0');
    const failures = readFileSync(join(t.dir, 'failed.csv'), 'utf8');
    expect(failures).toContain('invalid email address ""nb<U+00A0>sp@example.com""');
    // The cell itself stays as it was, to be fixed.
    expect(failures).toContain('nb\u00A0sp@example.com,Nab,yes,4,rejected,1,');
  });

  it('subscribers add --email refuses such an address, showing the character by code point and the address without it', async () => {
    const r = await spawnCli(['subscribers', 'add', '--list', LIST, '--email', 'zw\u200Bsp@example.com', '--name', 'Zed', '--consent', 'yes'], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"zw<U+200B>sp@example.com"');
    expect(r.stderr).toContain('invisible characters (U+200B); without them it is zwsp@example.com');
    expect(r.stderr).not.toContain('\u200B');
  });
});

describe('a duplicate row whose address the user corrected is a fix', () => {
  it('importing the failures file again sends the corrected row; an unedited duplicate (or one re-cased) still never overwrites the imported row', async () => {
    writeFile(
      t.dir,
      'typed.csv',
      'email,name,consent\nann@example.com,Ann,yes\nann@example.com,Anna Other,yes\nbob@example.com,Bob,yes\nbob@example.com,Bob Again,yes\ncy@example.com,Cy,yes\nCY@example.com,Cy Two,yes\n',
    );
    const first = await email('typed.csv', '--failures', 'failed.csv', '--json');
    expect(first.code, first.stderr).toBe(0);
    const failed = readFileSync(join(t.dir, 'failed.csv'), 'utf8');
    expect(failed).toMatch(/ann@example\.com,Anna Other,yes,3,duplicate,duplicate,.*<ann@example\.com>/);
    // Two people had typed one address: the second Ann's is corrected; Bob's duplicate left as it is; Cy's only re-cased.
    writeFile(t.dir, 'fixed.csv', failed.replace('ann@example.com,Anna Other', 'anna@example.com,Anna Other').replace('CY@example.com,Cy Two', 'Cy@Example.com,Cy Two'));
    const before = t.sandbox.requestCount();
    const again = await email('fixed.csv', '--json', '--failures', 'failed-2.csv');
    expect(again.code, again.stderr).toBe(0);
    const summary = JSON.parse(again.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: 3, new: 1, duplicates: 2, duplicatesFromFailuresFile: 2 });
    expect(importRequests(t.sandbox, before).flatMap((q) => q.body.Subscribers.map((s) => s.EmailAddress))).toEqual(['anna@example.com']);
    expect(storedName('anna@example.com')).toBe('Anna Other');
    expect(storedName('bob@example.com')).toBe('Bob');
    expect(storedName('cy@example.com')).toBe('Cy');
    // The unedited ones are listed again, still naming the address they repeat: the round trip can go on.
    const twice = readFileSync(join(t.dir, 'failed-2.csv'), 'utf8');
    expect(twice).toMatch(/bob@example\.com,Bob Again,yes,5,duplicate,duplicate,.*<bob@example\.com>/);
    writeFile(t.dir, 'fixed-2.csv', twice.replace('bob@example.com,Bob Again', 'robert@example.com,Bob Again'));
    const third = await email('fixed-2.csv', '--json');
    expect(JSON.parse(third.stdout)).toMatchObject({ rows: 2, new: 1, duplicates: 1 });
    expect(storedName('robert@example.com')).toBe('Bob Again');
  });
});
