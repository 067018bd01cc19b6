// Prompts on a real terminal (CLI.md "prompts", issue 20.6): bin/email runs on
// a pty made by `script -qec` (as test/e2e/pager.test.ts does), against the
// sandbox; once the question is on the screen the test types Ctrl-C or
// Ctrl-D. Either cancels: a `cancelled` line, exit 130, nothing stored or sent.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_CAMPAIGN_IDS, SEED_SEGMENT_IDS } from '../../src/sandbox/seed-campaigns.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { BIN, requireBuild, tempConfigDir } from '../helpers/cli.js';

let sandbox: RunningSandbox;

beforeAll(async () => {
  requireBuild();
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.stop());

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `email <argv>` on a pty; when `question` shows, types `keys`. Returns
 * what the terminal showed and the exit code. The pty stays open until the
 * command ends, so only the keys typed end the question.
 */
function answerOnTerminal(argv: string[], question: string, keys: string, env: Record<string, string | undefined> = {}): Promise<{ screen: string; code: number }> {
  const command = `stty rows 20 cols 100; ${quote(process.execPath)} ${quote(BIN)} ${argv.map(quote).join(' ')}; echo "rc=$?"`;
  return new Promise((resolve, reject) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EMAIL_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR'));
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...inherited, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey, EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_PAGER: 'cat', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let typed = false;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    const seen = (d: string) => {
      screen += d;
      if (!typed && screen.includes(question)) {
        typed = true;
        child.stdin.write(keys);
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('error', reject);
    child.on('close', () => {
      const m = /rc=(\d+)/.exec(screen);
      resolve({ screen, code: m ? Number(m[1]) : -1 });
    });
  });
}

const writes = () => sandbox.requests.filter((r) => r.method !== 'GET').length;
const KEYS = [
  ['Ctrl-C', '\x03'],
  ['Ctrl-D', '\x04'],
] as const;

describe('a prompt answered with Ctrl-C or Ctrl-D cancels', () => {
  for (const [name, key] of KEYS) {
    it(`campaigns unschedule, ${name}: cancelled, exit 130, the campaign still scheduled`, async () => {
      const before = writes();
      const r = await answerOnTerminal(['campaigns', 'unschedule', SEED_CAMPAIGN_IDS.customerSurvey], '[y/N]', key);
      expect(r.code, r.screen).toBe(130);
      expect(r.screen).toMatch(/^cancelled\r?$/m);
      expect(r.screen).not.toMatch(/stopped without finishing|error/);
      expect(writes()).toBe(before);
      expect(sandbox.state().campaigns[SEED_CAMPAIGN_IDS.customerSurvey]!.Status).toBe('Scheduled');
    });

    it(`segments clear-rules, ${name}: cancelled, exit 130, the rules kept`, async () => {
      const before = writes();
      const r = await answerOnTerminal(['segments', 'clear-rules', SEED_SEGMENT_IDS.customersGold], '[y/N]', key);
      expect(r.code, r.screen).toBe(130);
      expect(r.screen).toMatch(/^cancelled\r?$/m);
      expect(writes()).toBe(before);
      expect(sandbox.state().segments[SEED_SEGMENT_IDS.customersGold]!.RuleGroups).toHaveLength(1);
    });

    it(`auth login's key prompt, ${name}: cancelled, exit 130, nothing stored, nothing sent`, async () => {
      const dir = tempConfigDir();
      const before = sandbox.requestCount();
      // Ctrl-D ends input only on an empty line (on a line with text, a terminal deletes forward).
      const typed = name === 'Ctrl-C' ? `abc${key}` : key;
      const r = await answerOnTerminal(['auth', 'login', '--base-url', sandbox.url], 'API key for', typed, { EMAIL_CONFIG_DIR: dir, EMAIL_API_KEY: undefined });
      expect(r.code, r.screen).toBe(130);
      expect(r.screen).toMatch(/^cancelled\r?$/m);
      expect(r.screen).not.toContain('abc');
      expect(sandbox.requestCount()).toBe(before);
      expect(readdirSync(dir)).toEqual([]);
    });
  }
});

describe('a confirmation names what it acts on', () => {
  it('unschedule names the campaign (one read of the scheduled list)', async () => {
    const r = await answerOnTerminal(['campaigns', 'unschedule', SEED_CAMPAIGN_IDS.customerSurvey], '[y/N]', '\x03');
    expect(r.screen).toContain(`Unschedule campaign “Customer Survey” (${SEED_CAMPAIGN_IDS.customerSurvey})`);
  });

  it('clear-rules names the segment (one read of the segment)', async () => {
    const r = await answerOnTerminal(['segments', 'clear-rules', SEED_SEGMENT_IDS.customersGold], '[y/N]', '\x03');
    expect(r.screen).toContain(`segment “Gold tier” (${SEED_SEGMENT_IDS.customersGold})`);
  });
});
