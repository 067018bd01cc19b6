// End to end through bin/email: which profile, key and base URL are in
// effect (CLI.md "credentials"), the same for `email doctor` as for every
// command, and the slips a user makes with them: a profile name that does not
// exist, an api path without its leading slash, a base URL that already ends
// in /email, logging out the last profile.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConfig, type Profile } from '../../src/core/config.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.stop();
});

/** Nothing listens here: a base URL that must not be the one in effect. */
const DEAD_URL = 'http://127.0.0.1:9';

async function configWith(profiles: Record<string, Profile>, defaultProfile = 'default'): Promise<string> {
  const dir = tempConfigDir();
  await (await openConfig({ EMAIL_CONFIG_DIR: dir })).write({ defaultProfile, profiles });
  return dir;
}

interface Check {
  check: string;
  status: string;
  detail: string;
  hint?: string;
}
const checksOf = (stdout: string) => Object.fromEntries((JSON.parse(stdout) as Check[]).map((c) => [c.check, c]));
/** The base URL a command used and where it came from, as its --debug trace says. */
const usedBaseUrl = (stderr: string) => /base URL (\S+) from (.+)$/m.exec(stderr)?.slice(1, 3);

describe('doctor and the commands resolve settings alike', () => {
  it('a profile with a base URL and EMAIL_BASE_URL set: doctor names the environment\'s URL, as the command uses it, and says so', async () => {
    const dir = await configWith({ default: { baseUrl: DEAD_URL, apiKey: sandbox.apiKey } });
    const env = { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: sandbox.url };
    const doctor = await spawnCli(['doctor', '--json'], { env });
    expect(doctor.code, doctor.stderr).toBe(0);
    const checks = checksOf(doctor.stdout);
    expect(checks['base URL']).toMatchObject({ status: 'ok', detail: `${sandbox.url} (from env EMAIL_BASE_URL)` });
    expect(checks.profile!.detail).toContain('"default" (the default profile)');
    const command = await spawnCli(['api', '/email/clients/scheduled', '--debug'], { env });
    expect(command.code, command.stderr).toBe(0);
    expect(usedBaseUrl(command.stderr)).toEqual([sandbox.url, 'env EMAIL_BASE_URL']);
  });

  it('a profile without a key and EMAIL_BASE_URL set: doctor names the environment\'s URL, not the profile\'s', async () => {
    const dir = await configWith({ default: { baseUrl: DEAD_URL } });
    const doctor = await spawnCli(['doctor', '--json'], { env: { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: sandbox.url } });
    expect(doctor.code).toBe(4);
    const checks = checksOf(doctor.stdout);
    expect(checks['base URL']).toMatchObject({ status: 'ok', detail: `${sandbox.url} (from env EMAIL_BASE_URL)` });
    expect(checks.tcp!.status).toBe('ok');
  });

  it('EMAIL_API_KEY alone: doctor and the command both take the base URL of the profile in effect, and doctor says which', async () => {
    const dir = await configWith({ default: { baseUrl: DEAD_URL }, staging: { baseUrl: sandbox.url } });
    const env = { EMAIL_CONFIG_DIR: dir, EMAIL_API_KEY: sandbox.apiKey, EMAIL_PROFILE: 'staging' };
    const doctor = await spawnCli(['doctor', '--json'], { env });
    expect(doctor.code, doctor.stdout).toBe(0);
    const checks = checksOf(doctor.stdout);
    expect(checks['base URL']).toMatchObject({ status: 'ok', detail: `${sandbox.url} (from profile "staging")` });
    expect(checks.profile!.detail).toMatch(/from env EMAIL_API_KEY; the base URL from "staging" \(from env EMAIL_PROFILE\)$/);
    const command = await spawnCli(['api', '/email/clients/scheduled', '--debug'], { env });
    expect(command.code, command.stderr).toBe(0);
    expect(usedBaseUrl(command.stderr)?.[0]).toBe(sandbox.url);
  });

  it('--base-url over everything: doctor says it came from the flag', async () => {
    const dir = await configWith({ default: { baseUrl: DEAD_URL, apiKey: sandbox.apiKey } });
    const doctor = await spawnCli(['doctor', '--json', '--base-url', sandbox.url], { env: { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: DEAD_URL } });
    expect(doctor.code, doctor.stdout).toBe(0);
    expect(checksOf(doctor.stdout)['base URL']).toMatchObject({ status: 'ok', detail: `${sandbox.url} (from --base-url)` });
  });
});

describe('a profile name that does not exist', () => {
  for (const [how, argv, env] of [
    ['EMAIL_PROFILE', [], { EMAIL_PROFILE: 'nope' }],
    ['--profile', ['--profile', 'nope'], {}],
  ] as const) {
    it(`named by ${how}: exit 2 naming the profiles there are, and nothing is sent`, async () => {
      const dir = await configWith({ default: { baseUrl: sandbox.url, apiKey: sandbox.apiKey }, staging: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } });
      sandbox.clearRequests();
      const r = await spawnCli(['api', '/email/clients/scheduled', ...argv], { env: { EMAIL_CONFIG_DIR: dir, ...env } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: no profile named "nope" \\(${how === 'EMAIL_PROFILE' ? 'named by EMAIL_PROFILE' : 'given with --profile'}\\); profiles: default, staging$`, 'm'));
      expect(sandbox.requestCount()).toBe(0);
      const status = await spawnCli(['auth', 'status', ...argv], { env: { EMAIL_CONFIG_DIR: dir, ...env } });
      expect(status.code).toBe(2);
      expect(status.stderr).toMatch(/^warning: no profile named "nope" \((named by EMAIL_PROFILE|given with --profile)\); profiles: default, staging$/m);
      const doctor = await spawnCli(['doctor', '--json', ...argv], { env: { EMAIL_CONFIG_DIR: dir, ...env } });
      expect(checksOf(doctor.stdout).profile).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^no profile named "nope" .*; profiles: default, staging$/) });
    });
  }
});

describe('email api', () => {
  it('takes a path without its leading slash, as gh api does', async () => {
    const env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
    const bare = await spawnCli(['api', 'email/clients/scheduled'], { env });
    expect(bare.code, bare.stderr).toBe(0);
    const slashed = await spawnCli(['api', '/email/clients/scheduled'], { env });
    expect(JSON.parse(bare.stdout)).toEqual(JSON.parse(slashed.stdout));
  });

  it('refuses a whole URL where the path goes, saying to give the path, and sends nothing', async () => {
    sandbox.clearRequests();
    const r = await spawnCli(['api', `${sandbox.url}/email/clients/scheduled`], { env: { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: give the path below the base URL \(e\.g\. \/email\/clients\/campaigns\), not a whole URL/);
    expect(sandbox.requestCount()).toBe(0);
  });
});

describe('a base URL that ends in /email', () => {
  it('gets a hint on the 404 naming the base URL to use', async () => {
    const r = await spawnCli(['api', '/email/clients/scheduled', '--base-url', `${sandbox.url}/email`], { env: { EMAIL_API_KEY: sandbox.apiKey } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\(HTTP 404\)/);
    expect(r.stderr).toContain(`hint: the base URL ${sandbox.url}/email (from --base-url) ends in /email, and every path of the service starts with /email/: use ${sandbox.url}`);
  });

  it('doctor\'s key check gives the same hint; a right base URL\'s 404 gets none', async () => {
    const doctor = await spawnCli(['doctor', '--json', '--base-url', `${sandbox.url}/email/`], { env: { EMAIL_API_KEY: sandbox.apiKey } });
    expect(doctor.code).toBe(1);
    expect(checksOf(doctor.stdout)['api key']).toMatchObject({ status: 'fail', hint: `the base URL ${sandbox.url}/email ends in /email, and every path of the service starts with /email/: use ${sandbox.url}` });
    const right = await spawnCli(['api', '/email/no-such-endpoint', '--base-url', sandbox.url], { env: { EMAIL_API_KEY: sandbox.apiKey } });
    expect(right.code).toBe(1);
    expect(right.stderr).toMatch(/\(HTTP 404\)/);
    expect(right.stderr).not.toContain('ends in /email');
  });
});

describe('auth logout', () => {
  it('of the last profile clears the default, and a later login makes its profile the default', async () => {
    const dir = await configWith({ staging: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } }, 'staging');
    const env = { EMAIL_CONFIG_DIR: dir };
    const r = await spawnCli(['auth', 'logout'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('No profile is left, so there is no default profile');
    const file = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(file).toEqual({ profiles: {} });
    const login = await spawnCli(['auth', 'login', '--profile', 'ops', '--base-url', sandbox.url, '--with-key', '--insecure-storage'], { env, stdin: sandbox.apiKey });
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).defaultProfile).toBe('ops');
  });
});

describe('hints cite the docs that ship with the package', () => {
  it('subscribers add without --consent and update without --name point at docs/reference.md, not at the service spec users do not have', async () => {
    const env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
    const add = await spawnCli(['subscribers', 'add', '--list', '3f2b8c1e-0a4d-4c6b-9e1f-2a7d5c9b8e41', '--email', 'ada@example.com', '--name', 'Ada'], { env });
    expect(add.code).toBe(2);
    expect(add.stderr).toMatch(/^hint: .*docs\/reference\.md, "email subscribers add"/m);
    const update = await spawnCli(['subscribers', 'update', '--list', '3f2b8c1e-0a4d-4c6b-9e1f-2a7d5c9b8e41', '--email', 'ada@example.com', '--consent', 'yes'], { env });
    expect(update.code).toBe(2);
    expect(update.stderr).toMatch(/^hint: .*docs\/reference\.md, "email subscribers update"/m);
    for (const r of [add, update]) expect(r.stderr).not.toContain('service-spec');
  });

  it('no message in src/ names service-spec.md (comments may: they are for the people who have it)', () => {
    const root = new URL('../../src/', import.meta.url);
    const offenders: string[] = [];
    for (const file of readdirSync(root, { recursive: true }) as string[]) {
      if (!file.endsWith('.ts')) continue;
      readFileSync(new URL(file, root), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.trim();
          if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return;
          if (/service-spec/.test(code.replace(/\/\/.*$/, ''))) offenders.push(`${file}:${i + 1}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
