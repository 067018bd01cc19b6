// CLI.md "retries": a wait of 5 s or more is announced with one line on
// stderr, unless --quiet. The 429 asks for 299 s; the test never waits them:
// it stops the run (as Ctrl-C would) as soon as the retry decision is traced
// (--debug), and the announcement, written right after that decision and
// before the wait starts, is then either there or not.
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../src/cli.js';
import { tempConfigDir } from './helpers/cli.js';
import { startScriptedServer, type ScriptedServer } from './helpers/scripted-server.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(() => server.close());

const DECIDED = /429: waiting 299\.0s as Retry-After says/;

/** Runs `email <argv>` in-process and interrupts it once stderr shows the retry decision. */
async function runUntilDecided(argv: string[]): Promise<{ code: number; stderr: string }> {
  const controller = new AbortController();
  let stderr = '';
  const code = await run(argv, {
    io: {
      stdout: { write: () => true },
      stderr: {
        write: (s) => {
          stderr += String(s);
          if (DECIDED.test(stderr)) controller.abort(new Error('interrupted'));
          return true;
        },
      },
      stdin: new PassThrough(),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
    },
    env: { EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'sk_test_wait' },
    cwd: process.cwd(),
    signal: controller.signal,
  });
  return { code, stderr };
}

const rateLimited = { status: 429, body: { status: 429, message: 'Too many requests' }, headers: { 'retry-after': '299' } };

describe('announced waits', () => {
  it('announces a 299 s wait asked by a 429 with one line on stderr, before waiting', async () => {
    server.reply(rateLimited);
    const r = await runUntilDecided(['campaigns', 'sent', '--debug']);
    const announced = r.stderr.split('\n').filter((l) => l.startsWith('waiting '));
    expect(announced).toEqual(['waiting 299 s: the service asked us to slow down (HTTP 429 on GET /email/clients/campaigns)']);
    expect(r.code).toBe(130);
    expect(server.calls).toHaveLength(1);
  });

  it('says nothing with --quiet', async () => {
    server.reply(rateLimited);
    const r = await runUntilDecided(['campaigns', 'sent', '--debug', '--quiet']);
    expect(r.stderr).toMatch(DECIDED);
    expect(r.stderr).not.toMatch(/^waiting /m);
    expect(server.calls).toHaveLength(1);
  });
});
