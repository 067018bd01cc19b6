// The profile's stored pager (`email config set pager`) on a real terminal:
// bin/email runs on a pty made by `script -qec`, against the sandbox, with a
// recording pager (a shell command that writes what it reads to a file).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { BIN, spawnCli, tempConfigDir } from '../helpers/cli.js';

const CAMPAIGN = 'c0000000-0000-4000-8000-000000000001';
const TALL = ['campaigns', 'unsubscribes', CAMPAIGN, '--page-size', '50'];
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.stop());

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `email <argv>` on a 20-row pty with no pager variable but those in `env`; returns the exit code. */
function onTerminal(argv: string[], env: Record<string, string>): Promise<{ screen: string; code: number }> {
  const command = `stty rows 20 cols 100; ${quote(process.execPath)} ${quote(BIN)} ${argv.map(quote).join(' ')}; echo "rc=$?"`;
  return new Promise((resolve, reject) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EMAIL_') && k !== 'PAGER' && k !== 'NO_COLOR' && k !== 'FORCE_COLOR'));
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...inherited, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey, EMAIL_RETRY_BASE_MS: '5', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d) => (screen += d));
    child.stderr.on('data', (d) => (screen += d));
    child.on('error', reject);
    child.on('close', () => {
      const m = /rc=(\d+)/.exec(screen);
      resolve({ screen, code: m ? Number(m[1]) : -1 });
    });
    child.stdin.end();
  });
}

function recorder() {
  const file = join(mkdtempSync(join(tmpdir(), 'email-pager-')), 'paged.txt');
  return { file, command: `cat > ${quote(file)}` };
}

describe("the profile's pager", () => {
  it('pages through the stored pager; EMAIL_PAGER and PAGER win over it; "none" turns paging off', async () => {
    const dir = tempConfigDir();
    const stored = recorder();
    expect((await spawnCli(['config', 'set', 'pager', stored.command], { env: { EMAIL_CONFIG_DIR: dir } })).code).toBe(0);
    const paged = await onTerminal(TALL, { EMAIL_CONFIG_DIR: dir });
    expect(paged.code, paged.screen).toBe(0);
    expect(readFileSync(stored.file, 'utf8').match(/^│ \S+@\S+ /gm)).toHaveLength(50);

    for (const variable of ['EMAIL_PAGER', 'PAGER']) {
      const before = recorder();
      const winner = recorder();
      expect((await spawnCli(['config', 'set', 'pager', before.command], { env: { EMAIL_CONFIG_DIR: dir } })).code).toBe(0);
      const r = await onTerminal(TALL, { EMAIL_CONFIG_DIR: dir, [variable]: winner.command });
      expect(r.code, r.screen).toBe(0);
      expect(existsSync(winner.file), variable).toBe(true);
      expect(existsSync(before.file), variable).toBe(false);
    }

    expect((await spawnCli(['config', 'set', 'pager', 'none'], { env: { EMAIL_CONFIG_DIR: dir } })).code).toBe(0);
    const off = await onTerminal(TALL, { EMAIL_CONFIG_DIR: dir });
    expect(off.code).toBe(0);
    expect(off.screen.match(/^│ \S+@\S+ /gm)).toHaveLength(50);
  });
});
