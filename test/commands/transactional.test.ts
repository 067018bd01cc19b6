import { describe, expect, it } from 'vitest';
import { STATS_SMART_EMAIL_PARAM } from '../../src/api/transactional.js';
import { SEED_SMART_EMAIL_IDS } from '../../src/sandbox/seed-campaigns.js';
import { jsonError, useCommandSandbox } from '../helpers/sandbox.js';

const RESET = SEED_SMART_EMAIL_IDS.passwordReset;

const s = useCommandSandbox();

describe('transactional list', () => {
  it('GETs /email/transactional/smartEmail with the status asked for, and shows id, name, status, created', async () => {
    const r = await s.emailSent(['transactional', 'list', '--status', 'active']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]).toMatchObject({ method: 'GET', path: '/email/transactional/smartEmail', query: { status: 'active' } });
    const json = JSON.parse((await s.email(['transactional', 'list', '--status', 'active', '--json'])).stdout) as Record<string, string>[];
    expect(json.length).toBeGreaterThan(0);
    expect(json.every((e) => e.Status === 'Active')).toBe(true);
    expect(r.stdout.trimEnd().split('\n')).toEqual(json.map((e) => [e.ID, e.Name, e.Status, e.CreatedAt].join('\t')));
  });

  it('sends no status when none is given', async () => {
    const r = await s.emailSent(['transactional', 'list']);
    expect(r.sent[0]!.query).toEqual({});
  });

  it('sends the status in the spelling of the spec whatever the case typed', async () => {
    const r = await s.emailSent(['transactional', 'list', '--status', 'Draft']);
    expect(r.sent[0]!.query).toEqual({ status: 'draft' });
  });

  it('refuses an unknown status with 932', async () => {
    await s.expectRefused(['transactional', 'list', '--status', 'archived'], 932, /--status must be one of all, active, draft/);
  });

  it('surfaces 993 when the account lacks custom sending authentication', async () => {
    s.sandbox.state().campaignAccount!.customSendingAuthentication = false;
    try {
      const r = await s.email(['transactional', 'list', '--json']);
      expect(r.code).toBe(1);
      expect(jsonError(r.stderr)).toMatchObject({ status: 400, code: 993 });
    } finally {
      s.sandbox.state().campaignAccount!.customSendingAuthentication = true;
    }
  });
});

describe('transactional get', () => {
  it('GETs /smartEmail/{id} and shows the properties without the bodies; JSON has everything', async () => {
    const r = await s.emailSent(['transactional', 'get', '--smart-email', RESET]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]).toMatchObject({ method: 'GET', path: `/email/transactional/smartEmail/${RESET}` });
    const json = JSON.parse((await s.email(['transactional', 'get', '--smart-email', RESET, '--json'])).stdout);
    expect(json.Properties.Content.Html).toBeTruthy();
    expect(r.stdout).toContain(`ID\t${RESET}\n`);
    expect(r.stdout).toContain(`Subject\t${json.Properties.Subject}\n`);
    expect(r.stdout).toContain(`Variables\t${json.Properties.Content.EmailVariables.join(', ')}\n`);
    expect(r.stdout).not.toContain(json.Properties.Content.Html.slice(0, 20));
  });

  it('refuses an id that is not a GUID with 926, the code the spec lists for this call (925 is the statistics\' own)', async () => {
    await s.expectRefused(['transactional', 'get', '--smart-email', 'password-reset'], 926, /--smart-email must be a UUID/);
  });

  it('surfaces 926 for a smart email that does not exist', async () => {
    const r = await s.email(['transactional', 'get', '--smart-email', '99999999-9999-4999-8999-999999999999']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 926: /);
  });
});

describe('transactional stats', () => {
  it('sends group, from, to and timezone under the service names', async () => {
    const r = await s.emailSent(['transactional', 'stats', '--group', 'Password Reset', '--from', '2024-01-01', '--to', '2024-01-31', '--timezone', 'utc']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]).toMatchObject({
      method: 'GET',
      path: '/email/transactional/statistics',
      query: { group: 'Password Reset', from: '2024-01-01', to: '2024-01-31', timezone: 'utc' },
    });
  });

  it(`filters by smart email with the ${STATS_SMART_EMAIL_PARAM} parameter`, async () => {
    const r = await s.emailSent(['transactional', 'stats', '--smart-email', RESET]);
    expect(r.code, r.stderr).toBe(0);
    expect(STATS_SMART_EMAIL_PARAM).toBe('smartEmailID');
    expect(r.sent[0]!.query).toEqual({ smartEmailID: RESET });
  });

  it('sends nothing for defaults and shows the defaults of the spec in the query echo', async () => {
    const r = await s.emailSent(['transactional', 'stats']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]!.query).toEqual({});
    const json = JSON.parse((await s.email(['transactional', 'stats', '--json'])).stdout);
    expect(r.stdout).toContain(`From\t${json.Query.From} (default: 29 days before today)\n`);
    expect(r.stdout).toContain(`To\t${json.Query.To} (default: today)\n`);
    expect(r.stdout).toContain(`Time zone\t${json.Query.TimeZone} (default: the client's time zone)\n`);
    expect(r.stdout).toMatch(/^Sent\t\d+$/m);
    expect(r.stdout).toMatch(/^Clicked\t\d+$/m);
  });

  it('shows a value that was given without a default note, and the echo unchanged in JSON', async () => {
    const r = await s.email(['transactional', 'stats', '--from', '2024-01-01', '--timezone', 'utc']);
    expect(r.stdout).toContain('From\t2024-01-01\n');
    expect(r.stdout).toContain('Time zone\tutc\n');
    expect(r.stdout).toMatch(/^To\t\d{4}-\d{2}-\d{2} \(default: today\)$/m);
    const json = JSON.parse((await s.email(['transactional', 'stats', '--from', '2024-01-01', '--json'])).stdout);
    expect(json.Query).toMatchObject({ From: '2024-01-01' });
    expect(Object.keys(json)).toEqual(expect.arrayContaining(['Query', 'Sent', 'Bounces', 'Delivered', 'Opened', 'Clicked']));
  });

  it('refuses --group with --smart-email with 924', async () => {
    await s.expectRefused(['transactional', 'stats', '--group', 'Receipts', '--smart-email', RESET], 924, /cannot be combined/);
  });

  it('refuses a smart email id that is not a GUID with 925', async () => {
    await s.expectRefused(['transactional', 'stats', '--smart-email', '1234'], 925);
  });

  it.each(['2024-1-01', '2024/01/01', '2024-02-30', 'yesterday'])('refuses --from %s with 920 and --to with 922', async (day) => {
    await s.expectRefused(['transactional', 'stats', '--from', day], 920, /--from must be a day written YYYY-MM-DD/);
    await s.expectRefused(['transactional', 'stats', '--to', day], 922, /--to must be a day written YYYY-MM-DD/);
  });

  it('refuses --from after --to with 921, and accepts the same day', async () => {
    await s.expectRefused(['transactional', 'stats', '--from', '2024-02-01', '--to', '2024-01-31'], 921, /--from 2024-02-01 is after --to 2024-01-31/);
    expect((await s.email(['transactional', 'stats', '--from', '2024-02-01', '--to', '2024-02-01'])).code).toBe(0);
  });

  it('refuses a time zone other than utc or client with 923', async () => {
    await s.expectRefused(['transactional', 'stats', '--timezone', 'Europe/Paris'], 923, /--timezone must be one of utc, client/);
  });

  it('surfaces 921 from the service when only --from is given and lies after today', async () => {
    const r = await s.email(['transactional', 'stats', '--from', '2999-01-01']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 921: /);
  });

  it('lists the allowed values of --status and --timezone in the help', async () => {
    expect((await s.email(['transactional', 'list', '--help'])).stdout).toMatch(/\(choices: "all", "active", "draft"\)/);
    expect((await s.email(['transactional', 'stats', '--help'])).stdout).toMatch(/\(choices: "utc", "client"\)/);
  });
});
