// subscribers add, update, history and lists, in-process against the sandbox:
// the request on the wire, the output, and every client-side check refused
// with exit 2, the service's code and nothing sent.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { jsonError, useCommandSandbox } from '../helpers/sandbox.js';

const LIST = SEED_LIST_IDS.newsletter;
const s = useCommandSandbox({}, 'each');

describe('subscribers add', () => {
  it('posts the subscriber with repeated --field as MultiSelectMany items, values as typed, and prints the id', async () => {
    const r = await s.emailSent([
      'subscribers', 'add', '--list', LIST, '--email', ' zed@example.com ', '--name', 'Zed',
      '--field', 'Interests=News', '--field', 'Interests=Events', '--field', 'Birthday=1990/05/17', '--consent', 'yes', '--resubscribe',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('zed@example.com\n');
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({ method: 'POST', path: `/email/subscribers/${LIST}` });
    expect(r.sent[0]!.body).toEqual({
      EmailAddress: 'zed@example.com',
      Name: 'Zed',
      CustomFields: [
        { Key: 'Interests', Value: 'News' },
        { Key: 'Interests', Value: 'Events' },
        { Key: 'Birthday', Value: '1990/05/17' },
      ],
      ConsentToTrack: 'Yes',
      Resubscribe: true,
      RestartSubscriptionBasedAutoresponders: false,
    });
    expect(s.sandbox.state().lists[LIST]!.Subscribers['zed@example.com']!.CustomFields['[Interests]']).toEqual(['News', 'Events']);
  });

  it('its help example sets the Interests it shows (issue 13.12: examples do what they show)', async () => {
    const { default: add } = await import('../../src/commands/subscribers/add.js');
    const example = add.examples.find((e) => e.includes('--field Interests='))!;
    const values = [...example.matchAll(/--field Interests=(\w+)/g)].map((m) => m[1]);
    expect(values.length).toBeGreaterThan(1);
    const argv = example
      .replace(/^email /, '')
      .replace('<id>', LIST)
      .match(/"[^"]*"|\S+/g)!
      .map((w) => w.replace(/^"|"$/g, ''));
    const r = await s.email(argv);
    expect(r.code, r.stderr).toBe(0);
    const email = argv[argv.indexOf('--email') + 1]!;
    expect(s.sandbox.state().lists[LIST]!.Subscribers[email]!.CustomFields['[Interests]']).toEqual(values);
  });

  it('prints the service answer unchanged with --json', async () => {
    const r = await s.email(['subscribers', 'add', '--list', LIST, '--email', 'j@example.com', '--name', 'J', '--consent', 'no', '--json']);
    expect(JSON.parse(r.stdout)).toBe('j@example.com');
  });

  it('refuses, with nothing sent: a bad address (1), no consent (214), another consent (215), 251 characters, a bad list id', async () => {
    const base = ['subscribers', 'add', '--list', LIST, '--name', 'Z'];
    await s.expectRefused([...base, '--email', 'zed@', '--consent', 'yes'], 1, /--email must be a valid email address \(got "zed@"\)/);
    await s.expectRefused([...base, '--email', 'z@example.com'], 214, /--consent is required: yes or no; the service refuses a subscriber without ConsentToTrack/);
    await s.expectRefused([...base, '--email', 'z@example.com', '--consent', 'unchanged'], 215);
    await s.expectRefused([...base, '--email', 'z@example.com', '--consent', 'yes', '--field', `Company=${'x'.repeat(251)}`], undefined, /251 characters long; the service's limit is 250/);
    await s.expectRefused(['subscribers', 'add', '--list', 'nope', '--name', 'Z', '--email', 'z@example.com', '--consent', 'yes'], undefined, /--list must be a UUID/);
  });

  it('surfaces a refusal of the service with its code (206)', async () => {
    const r = await s.email(['subscribers', 'add', '--list', LIST, '--email', 'unsubscribed@example.com', '--name', 'U', '--consent', 'yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 206: /);
  });
});

describe('subscribers update', () => {
  it('puts the subscriber at ?email=<current> with the new address, the name, fields and Clear items', async () => {
    const r = await s.emailSent([
      'subscribers', 'update', '--list', LIST, '--email', 'ada@example.com', '--new-email', 'ada@new.example.com', '--name', 'Ada King',
      '--field', 'Company=Engines Ltd', '--clear-field', 'Interests=News', '--clear-field', 'Birthday', '--consent', 'no',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]).toMatchObject({ method: 'PUT', path: `/email/subscribers/${LIST}`, query: { email: 'ada@example.com' } });
    expect(r.sent[0]!.body).toEqual({
      EmailAddress: 'ada@new.example.com',
      Name: 'Ada King',
      CustomFields: [
        { Key: 'Company', Value: 'Engines Ltd' },
        { Key: 'Interests', Value: 'News', Clear: true },
        { Key: 'Birthday', Value: '', Clear: true },
      ],
      ConsentToTrack: 'No',
      Resubscribe: false,
      RestartSubscriptionBasedAutoresponders: false,
    });
    const ada = s.sandbox.state().lists[LIST]!.Subscribers['ada@new.example.com']!;
    expect(ada.CustomFields['[Interests]']).toEqual(['Events']);
    expect(ada.CustomFields['[Birthday]']).toBeUndefined();
    expect(r.stderr).toBe('updated ada@example.com → ada@new.example.com\n');
  });

  it('refuses a bad current address (1), a bad new one (211), and a missing --name, with nothing sent', async () => {
    const base = ['subscribers', 'update', '--list', LIST, '--consent', 'yes', '--name', 'A'];
    await s.expectRefused([...base, '--email', 'ada@'], 1);
    await s.expectRefused([...base, '--email', 'ada@example.com', '--new-email', 'ada@new'], 211, /--new-email/);
    await s.expectRefused(['subscribers', 'update', '--list', LIST, '--email', 'ada@example.com', '--consent', 'yes'], undefined, /--name is required/);
  });

  it('an empty --name at a terminal is asked for, and sent only when the answer is yes', async () => {
    const tty = { stdinIsTTY: true, stderrIsTTY: true };
    const argv = ['subscribers', 'update', '--list', LIST, '--email', 'grace@example.com', '--name', '', '--consent', 'yes'];
    const questions: string[] = [];
    const no = await s.emailSent(argv, { ...tty, prompt: { secret: async () => '', confirm: async (q) => (questions.push(q), false) } });
    expect(no.code).toBe(2);
    expect(no.sent).toEqual([]);
    expect(questions[0]).toMatch(/stored name of grace@example\.com .* emptied\. Send an empty name\?/);
    expect(s.sandbox.state().lists[LIST]!.Subscribers['grace@example.com']!.Name).toBe('Grace Hopper');
    const yes = await s.emailSent(argv, { ...tty, prompt: { secret: async () => '', confirm: async () => true } });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.sent[0]!.body).toMatchObject({ Name: '' });
    expect(s.sandbox.state().lists[LIST]!.Subscribers['grace@example.com']!.Name).toBe('');
  });

  it('surfaces 203 for an address not on the list', async () => {
    const r = await s.email(['subscribers', 'update', '--list', LIST, '--email', 'nobody@example.com', '--name', 'N', '--consent', 'yes', '--json']);
    expect(r.code).toBe(1);
    expect(jsonError(r.stderr)).toMatchObject({ status: 400, code: 203 });
  });
});

describe('subscribers history and lists', () => {
  it('history: one table line per action; JSON is the service array unchanged', async () => {
    const table = await s.email(['subscribers', 'history', '--list', LIST, '--email', 'ada@example.com']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.trim().split('\n')).toHaveLength(2);
    expect(table.stdout).toMatch(/Campaign\tWelcome to the Newsletter\tClick\t.*https:\/\/example.com\/welcome/);
    const json = await s.emailSent(['subscribers', 'history', '--list', LIST, '--email', 'ada@example.com', '--json']);
    expect(json.sent[0]).toMatchObject({ method: 'GET', path: `/email/subscribers/${LIST}/history`, query: { email: 'ada@example.com' } });
    expect(JSON.parse(json.stdout)[0]).toMatchObject({ Type: 'Campaign', Actions: [{ Event: 'Open' }, { Event: 'Click' }] });
  });

  it('lists: every list of the address with its state', async () => {
    const r = await s.emailSent(['subscribers', 'lists', '--email', 'grace@example.com', '--json']);
    expect(r.sent[0]).toMatchObject({ path: '/email/clients/listsforemail', query: { email: 'grace@example.com' } });
    const states = Object.fromEntries((JSON.parse(r.stdout) as { ListName: string; SubscriberState: string }[]).map((l) => [l.ListName, l.SubscriberState]));
    expect(states).toMatchObject({ Newsletter: 'Active', Customers: 'Unsubscribed' });
  });

  it('refuses a bad address with code 1 before sending', async () => {
    await s.expectRefused(['subscribers', 'lists', '--email', 'grace'], 1);
    await s.expectRefused(['subscribers', 'history', '--list', LIST, '--email', 'grace'], 1);
  });
});
