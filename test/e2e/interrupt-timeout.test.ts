// Ctrl-C and --timeout through the real binary, against a server that never answers.
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

describe('a request that never answers', () => {
  it('--timeout ends it with exit 1 and names the request', async () => {
    server.reply({ hang: true }, { hang: true }, { hang: true }, { hang: true });
    const r = await spawnCli(['api', '/email/clients/scheduled', '--timeout', '0.2'], {
      env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k-12345678', EMAIL_RETRY_BASE_MS: '1' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: GET /email/clients/scheduled timed out after 0.2s\n');
    expect(server.calls).toHaveLength(4); // a read is retried after a timeout: 1 + 3
  });

  /** Runs `email <argv>` against the hanging server and presses Ctrl-C once its request is in. */
  async function interruptedWhileHanging(argv: string[]): Promise<{ code: unknown; stderr: string }> {
    server.reply({ hang: true });
    const child = spawn(process.execPath, [BIN, ...argv], {
      env: { PATH: process.env.PATH, EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k-12345678' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    while (server.calls.length === 0) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.on('close', resolve));
    return { code, stderr };
  }

  it('Ctrl-C aborts it and exits 130', async () => {
    const { code, stderr } = await interruptedWhileHanging(['api', '/email/clients/scheduled']);
    expect(code).toBe(130);
    expect(stderr).toBe('error: interrupted\n');
  });

  it('Ctrl-C while auth status checks the key exits 130, not as a check that failed', async () => {
    const { code, stderr } = await interruptedWhileHanging(['auth', 'status']);
    expect(code).toBe(130);
    expect(stderr).toBe('error: interrupted\n');
  });
});
