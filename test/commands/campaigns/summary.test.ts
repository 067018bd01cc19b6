// `email campaigns summary` (CLI.md `campaigns summary`, issue 20.7 and 20.9):
// the rates a marketer reads first — open, click, bounce, unsubscribe as % of
// recipients — drawn as bars on a terminal and plain numbers in a pipe;
// `--json` the service's answer unchanged; a narrow terminal wraps, never cuts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_CAMPAIGN_IDS } from '../../../src/sandbox/seed-campaigns.js';
import { runCli } from '../../helpers/cli.js';
import { startCommandSandbox, type CommandSandbox } from '../../helpers/sandbox.js';
import { startScriptedServer } from '../../helpers/scripted-server.js';

const WELCOME = SEED_CAMPAIGN_IDS.welcome;
let s: CommandSandbox;
beforeAll(async () => {
  s = await startCommandSandbox();
});
afterAll(() => s.stop());

const terminal = { stdoutIsTTY: true, env: { EMAIL_PAGER: 'cat', NO_COLOR: '1' } };
const pct = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;

async function serviceAnswer() {
  const r = await s.email(['campaigns', 'summary', WELCOME, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, number>;
}

describe('campaigns summary', () => {
  it('--json is the service answer unchanged: no rates added', async () => {
    const answer = await serviceAnswer();
    expect(Object.keys(answer)).not.toContain('Open rate');
    expect(Object.keys(answer).sort()).toEqual(
      ['Recipients', 'TotalOpened', 'Clicks', 'Unsubscribed', 'Bounced', 'UniqueOpened', 'SpamComplaints', 'Forwards', 'Likes', 'Mentions', 'WebVersionURL', 'WebVersionTextURL', 'WorldviewURL'].sort(),
    );
  });

  it('in a pipe: the four rates as plain numbers (% of recipients), plain digits, no bars', async () => {
    const a = await serviceAnswer();
    const r = await s.email(['campaigns', 'summary', WELCOME]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Recipients\t${a.Recipients}\n`);
    expect(r.stdout).toContain(`Open rate\t${pct(a.UniqueOpened!, a.Recipients!)}\n`);
    expect(r.stdout).toContain(`Click rate\t${pct(a.Clicks!, a.Recipients!)}\n`);
    expect(r.stdout).toContain(`Bounce rate\t${pct(a.Bounced!, a.Recipients!)}\n`);
    expect(r.stdout).toContain(`Unsubscribe rate\t${pct(a.Unsubscribed!, a.Recipients!)}\n`);
    expect(r.stdout).not.toMatch(/[█░▏▎▍▌▋▊▉]/);
    expect(r.stdout).not.toMatch(/\d,\d{3}/);
  });

  it('on a terminal: each rate drawn as a bar beside its number, counts grouped', async () => {
    const a = await serviceAnswer();
    const r = await s.email(['campaigns', 'summary', WELCOME], terminal);
    expect(r.code, r.stderr).toBe(0);
    const open = r.stdout.split('\n').find((l) => l.includes('Open rate'))!;
    expect(open).toContain(pct(a.UniqueOpened!, a.Recipients!));
    expect(open).toMatch(/█+/);
    expect(r.stdout).toContain(a.Recipients!.toLocaleString('en-US'));
    // The longer bar is the larger rate.
    const bar = (label: string) => (r.stdout.split('\n').find((l) => l.includes(label))!.match(/█/g) ?? []).length;
    expect(bar('Open rate')).toBeGreaterThan(bar('Click rate'));
    expect(bar('Click rate')).toBeGreaterThanOrEqual(bar('Bounce rate'));
  });

  it('--fields picks the counter, not the rate drawn from it', async () => {
    const a = await serviceAnswer();
    const r = await s.email(['campaigns', 'summary', WELCOME, '--fields', 'Recipients,UniqueOpened']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`Recipients\t${a.Recipients}\nUniqueOpened\t${a.UniqueOpened}\n`);
  });

  it('zero recipients: no rate is computed (no division by zero), in a pipe and on a terminal', async () => {
    const server = await startScriptedServer();
    try {
      const zero = { Recipients: 0, TotalOpened: 0, Clicks: 0, Unsubscribed: 0, Bounced: 0, UniqueOpened: 0, SpamComplaints: 0, Forwards: 0, Likes: 0, Mentions: 0 };
      server.reply({ status: 200, body: zero }, { status: 200, body: zero });
      const env = { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k-zero' };
      const piped = await runCli(['campaigns', 'summary', WELCOME], { env });
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stdout).toMatch(/^Open rate\t\n/m);
      expect(piped.stdout).not.toMatch(/NaN|Infinity/);
      const shown = await runCli(['campaigns', 'summary', WELCOME], { ...terminal, env: { ...terminal.env, ...env } });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/Open rate +│ no recipients/);
      expect(shown.stdout).not.toMatch(/NaN|Infinity/);
    } finally {
      await server.close();
    }
  });

  it('a narrow terminal (60 columns) wraps long values instead of cutting them', async () => {
    const a = (await serviceAnswer()) as unknown as Record<string, string>;
    const r = await s.email(['campaigns', 'summary', WELCOME], { ...terminal, columns: 60 });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(r.stdout).not.toContain('…');
    // Each URL whole, once the pieces of its wrapped cell are put together.
    const values = lines.map((l) => l.split('│')[2]?.trim() ?? '').join('');
    for (const key of ['WebVersionURL', 'WebVersionTextURL', 'WorldviewURL']) expect(values, key).toContain(a[key]);
  });
});
