// `subscribers add` and `update` through bin/email against the sandbox: what
// --field sends (what was typed: no endpoint tells the tool a field's type, so
// a value shaped like a date is said, never rewritten), an empty --name asked
// for, RestartSubscriptionBasedAutoresponders on both, every missing required
// flag named at once, and the hint for an unsubscribed address (206).
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { humanStderr, spawnCli } from '../helpers/cli.js';
import { sandboxPerTest } from '../helpers/sandbox.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;
const CUSTOMERS = SEED_LIST_IDS.customers;

const t = sandboxPerTest();
const email = (...argv: string[]) => spawnCli(argv, { cwd: t.dir, env: t.env });
const subscriber = (list: string, address: string) => t.sandbox.state().lists[list.toLowerCase()]!.Subscribers[address];
/** The custom field values the last request carried. */
const sentFields = () => (t.sandbox.requests.at(-1)!.body as { CustomFields: { Key: string; Value: string }[] }).CustomFields;
const lines = (stderr: string) => humanStderr(stderr).split('\n').filter(Boolean);

describe('--field sends what was typed', () => {
  it('a Text field keeps 15.03.2024 as typed; one line names the field, its yyyy/mm/dd form and how to send that', async () => {
    const r = await email('subscribers', 'add', '--list', CUSTOMERS, '--email', 'c@example.com', '--name', 'C', '--field', 'CustomerID=15.03.2024', '--consent', 'yes');
    expect(r.code, r.stderr).toBe(0);
    expect(sentFields()).toEqual([{ Key: 'CustomerID', Value: '15.03.2024' }]);
    expect(subscriber(CUSTOMERS, 'c@example.com')!.CustomFields['[CustomerID]']).toEqual(['15.03.2024']);
    const said = lines(r.stderr);
    expect(said, r.stderr).toHaveLength(1);
    expect(said[0]).toMatch(/CustomerID "15\.03\.2024" is sent as typed/);
    expect(said[0]).toContain('--field "CustomerID=2024/03/15"');
  });

  it('an ISO date on a Text field is sent as typed, with the one line', async () => {
    const r = await email('subscribers', 'add', '--list', NEWSLETTER, '--email', 'd@example.com', '--name', 'D', '--field', 'Company=2024-01-31', '--consent', 'yes');
    expect(r.code, r.stderr).toBe(0);
    expect(sentFields()).toEqual([{ Key: 'Company', Value: '2024-01-31' }]);
    expect(subscriber(NEWSLETTER, 'd@example.com')!.CustomFields['[Company]']).toEqual(['2024-01-31']);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('--field "Company=2024/01/31"');
  });

  it('an ambiguous 1.2.2024 is sent as typed, and the line names both readings', async () => {
    const r = await email('subscribers', 'add', '--list', CUSTOMERS, '--email', 'e@example.com', '--name', 'E', '--field', 'CustomerID=1.2.2024', '--consent', 'yes');
    expect(r.code, r.stderr).toBe(0);
    expect(sentFields()).toEqual([{ Key: 'CustomerID', Value: '1.2.2024' }]);
    const said = lines(r.stderr);
    expect(said, r.stderr).toHaveLength(1);
    expect(said[0]).toContain('1 February 2024');
    expect(said[0]).toContain('2 January 2024');
    expect(said[0]).toContain('--field "CustomerID=2024/02/01"');
    expect(said[0]).toContain('--field "CustomerID=2024/01/02"');
  });

  it('a year-first yyyy/mm/dd date is sent as it is, without a word', async () => {
    const r = await email('subscribers', 'add', '--list', NEWSLETTER, '--email', 'f@example.com', '--name', 'F', '--field', 'Birthday=1990/05/17', '--consent', 'yes');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(subscriber(NEWSLETTER, 'f@example.com')!.CustomFields['[Birthday]']).toEqual(['1990-05-17']);
  });

  for (const value of ['2024-01-01 10:00', '2018-08-27T15:06:27.713Z', '2018-02-12 10:54:27 UTC']) {
    it(`a date-time (${value}) is said: a Date field keeps yyyy/mm/dd only, with the command that sends the date part`, async () => {
      const day = value.slice(0, 10).replace(/-/g, '/');
      for (const verb of ['add', 'update']) {
        const r = await email('subscribers', verb, '--list', NEWSLETTER, '--email', 'ada@example.com', '--name', 'Ada Lovelace', '--field', `Birthday=${value}`, '--consent', 'yes');
        expect(r.code, r.stderr).toBe(0);
        expect(sentFields()).toEqual([{ Key: 'Birthday', Value: value }]);
        // update also says what it did ("updated …").
        const said = lines(r.stderr).filter((l) => l.includes('--field'));
        expect(said, r.stderr).toHaveLength(1);
        expect(said[0]).toMatch(/date and a time/);
        expect(said[0]).toMatch(/a Date field keeps yyyy\/mm\/dd only/);
        expect(said[0]).toContain(`--field "Birthday=${day}"`);
      }
    });
  }
});

describe('an empty --name is asked for', () => {
  it('update --name "" is refused before sending, naming the flag that sends it; with that flag the name is emptied', async () => {
    const before = t.sandbox.requestCount();
    const r = await email('subscribers', 'update', '--list', NEWSLETTER, '--email', 'ada@example.com', '--name', '', '--consent', 'yes');
    expect(r.code).toBe(2);
    expect(t.sandbox.requestCount()).toBe(before);
    expect(r.stderr).toMatch(/--name is empty/);
    expect(r.stderr).toContain('--allow-empty-name');
    expect(subscriber(NEWSLETTER, 'ada@example.com')!.Name).toBe('Ada Lovelace');
    const sent = await email('subscribers', 'update', '--list', NEWSLETTER, '--email', 'ada@example.com', '--name', '', '--allow-empty-name', '--consent', 'yes');
    expect(sent.code, sent.stderr).toBe(0);
    expect(subscriber(NEWSLETTER, 'ada@example.com')!.Name).toBe('');
  });

  it('add --name "  " is refused the same way (an existing address has its name replaced)', async () => {
    const before = t.sandbox.requestCount();
    const r = await email('subscribers', 'add', '--list', NEWSLETTER, '--email', 'ada@example.com', '--name', '  ', '--consent', 'yes');
    expect(r.code).toBe(2);
    expect(t.sandbox.requestCount()).toBe(before);
    expect(r.stderr).toContain('--allow-empty-name');
  });
});

describe('RestartSubscriptionBasedAutoresponders', () => {
  it('add and update send it with --restart-autoresponders, and false without', async () => {
    for (const verb of ['add', 'update']) {
      const r = await email('subscribers', verb, '--list', NEWSLETTER, '--email', 'ada@example.com', '--name', 'Ada', '--consent', 'yes', '--resubscribe', '--restart-autoresponders');
      expect(r.code, r.stderr).toBe(0);
      expect(t.sandbox.requests.at(-1)!.body).toMatchObject({ Resubscribe: true, RestartSubscriptionBasedAutoresponders: true });
      const plain = await email('subscribers', verb, '--list', NEWSLETTER, '--email', 'ada@example.com', '--name', 'Ada', '--consent', 'yes');
      expect(plain.code, plain.stderr).toBe(0);
      expect(t.sandbox.requests.at(-1)!.body).toMatchObject({ RestartSubscriptionBasedAutoresponders: false });
    }
  });
});

describe('required flags', () => {
  it('update without --name and --consent names both in one run, and its Usage shows them', async () => {
    const before = t.sandbox.requestCount();
    const r = await email('subscribers', 'update', '--list', NEWSLETTER, '--email', 'ada@example.com');
    expect(r.code).toBe(2);
    expect(t.sandbox.requestCount()).toBe(before);
    expect(r.stderr).toMatch(/--name/);
    expect(r.stderr).toMatch(/--consent/);
    const help = await email('subscribers', 'update', '--help');
    const usage = help.stdout.split('\n')[0]!;
    expect(usage).toMatch(/^Usage: email subscribers update /);
    for (const flag of ['--list <id>', '--email <current>', '--name <n>', '--consent <yes|no>']) expect(usage).toContain(flag);
    expect(usage).not.toContain('--new-email');
  });
});

describe('an unsubscribed address (206)', () => {
  it('add names --resubscribe', async () => {
    const r = await email('subscribers', 'add', '--list', NEWSLETTER, '--email', 'unsubscribed@example.com', '--name', 'Uma', '--consent', 'yes');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 206: /);
    expect(r.stderr).toContain('--resubscribe');
  });

  it('import says how many rows the service refused as unsubscribed, and names --resubscribe', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    writeFileSync(join(t.dir, 'back.csv'), 'email,name,consent\nunsubscribed@example.com,Uma,yes\nnew@example.com,New,yes\n');
    const r = await email('subscribers', 'import', 'back.csv', '--list', NEWSLETTER);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/1 row was refused as unsubscribed \(206\).*--resubscribe/);
  });
});
