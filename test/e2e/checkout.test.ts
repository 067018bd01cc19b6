// A fresh checkout (the project's files, no dist/, no node_modules) becomes a
// working bin/email with `npm ci` alone, as the README's quick start and CI
// expect, although the package declares no install-time script (issue 13.18).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('a fresh checkout', () => {
  it('npm ci, then bin/email works: --version, a group help, a command', () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-checkout-'));
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
    for (const file of tracked) {
      if (!existsSync(join(root, file))) continue;
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      copyFileSync(join(root, file), join(dir, file));
    }
    expect(existsSync(join(dir, 'dist'))).toBe(false);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(npm_|EMAIL_)/i.test(k)) env[k] = v;
    const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, env, encoding: 'utf8' });
    expect(ci.status, ci.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const version = spawnSync(join(dir, 'bin', 'email'), ['--version'], { cwd: dir, env, encoding: 'utf8' });
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout).toBe(`${pkg.version}\n`);
    const help = spawnSync(join(dir, 'bin', 'email'), ['campaigns', '--help'], { cwd: dir, env, encoding: 'utf8' });
    expect(help.stdout).toMatch(/^Usage: email campaigns/);
    const refused = spawnSync(join(dir, 'bin', 'email'), ['campaigns', 'summary', 'nope'], { cwd: dir, env: { ...env, EMAIL_API_KEY: 'k-12345678', EMAIL_BASE_URL: 'http://127.0.0.1:9' }, encoding: 'utf8' });
    expect(refused.status).toBe(2);
  }, 240_000);
});
