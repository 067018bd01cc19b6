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
  it('a profile with a key, and both variables set: doctor names the environment\'s URL, as the command uses it, and warns of the stored key overridden', async () => {
    const dir = await configWith({ default: { baseUrl: DEAD_URL, apiKey: 'stored-key-0000' } });
    const env = { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
    const doctor = await spawnCli(['doctor', '--json'], { env });
    expect(doctor.code, doctor.stderr).toBe(0);
    const checks = checksOf(doctor.stdout);
    expect(checks['base URL']).toMatchObject({ status: 'ok', detail: `${sandbox.url} (from env EMAIL_BASE_URL)` });
    expect(checks.profile).toMatchObject({ status: 'warn', detail: expect.stringContaining('from env EMAIL_API_KEY, not the key stored for "default" (the default profile)') });
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
    const doctor = await spawnCli(['doctor', '--json', '--base-url', sandbox.url], { env: { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: DEAD_URL, EMAIL_API_KEY: sandbox.apiKey } });
    expect(doctor.code, doctor.stdout).toBe(0);
    expect(checksOf(doctor.stdout)['base URL']).toMatchObject({ status: 'ok', detail: `${sandbox.url} (from --base-url)` });
  });
});

describe('where the key came from, said where it matters', () => {
  it('EMAIL_API_KEY alone over a profile\'s stored key: doctor warns, and a 401 hint names the variable, not auth status', async () => {
    const dir = await configWith({ default: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } });
    const env = { EMAIL_CONFIG_DIR: dir, EMAIL_API_KEY: 'wrong-key-0000' };
    const doctor = await spawnCli(['doctor', '--json'], { env });
    const checks = checksOf(doctor.stdout);
    expect(checks.profile).toMatchObject({ status: 'warn', hint: 'unset EMAIL_API_KEY to use the key of profile "default"' });
    expect(checks['api key']!.hint).toMatch(/EMAIL_API_KEY was refused/);
    const r = await spawnCli(['campaigns', 'sent'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^hint: The key from EMAIL_API_KEY was refused/m);
    expect(r.stderr).not.toContain('auth status');
  });

  it('a stored key refused: the hint names its profile and `auth status`', async () => {
    const dir = await configWith({ ops: { baseUrl: sandbox.url, apiKey: 'wrong-key-0000' } }, 'ops');
    const r = await spawnCli(['campaigns', 'sent'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('hint: The key of profile "ops" was refused. Check it with `email auth status --profile ops`');
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

describe('a stored key never leaves its base URL', () => {
  let other: RunningSandbox;
  beforeAll(async () => {
    other = await startSandbox({ port: 0 });
  });
  afterAll(() => other.stop());

  it('a --base-url or EMAIL_BASE_URL of another service with a stored key is exit 2 naming both, and nothing reaches it', async () => {
    const dir = await configWith({ default: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } });
    other.clearRequests();
    for (const [argv, env, source] of [
      [['--base-url', other.url], {}, '--base-url'],
      [[], { EMAIL_BASE_URL: other.url }, 'env EMAIL_BASE_URL'],
    ] as const) {
      const r = await spawnCli(['campaigns', 'sent', ...argv], { env: { EMAIL_CONFIG_DIR: dir, ...env } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`error: profile "default"'s key was stored for ${sandbox.url}, not for ${other.url} (from ${source}): refusing to send it there`);
      expect(r.stderr).toMatch(/^hint: .*EMAIL_API_KEY/m);
    }
    expect(other.requestCount()).toBe(0);
  });

  it('the same service spelled another way is the same (a trailing slash, the host in capitals)', async () => {
    const dir = await configWith({ default: { baseUrl: `${sandbox.url}/`, apiKey: sandbox.apiKey } });
    const r = await spawnCli(['campaigns', 'sent', '--base-url', sandbox.url.replace('http:', 'HTTP:')], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    for (const [stored, given] of [['http://LOCALHOST:9/', 'http://localhost:9'], ['http://127.0.0.1:80', 'http://127.0.0.1/']]) {
      const same = await configWith({ default: { baseUrl: stored, apiKey: 'k' } });
      const sent = await spawnCli(['campaigns', 'sent', '--base-url', given], { env: { EMAIL_CONFIG_DIR: same } });
      // Same service: the key goes (and nothing answers there), not exit 2.
      expect(sent.code, `${stored} ${given}: ${sent.stderr}`).toBe(1);
    }
  });

  it('a key given in EMAIL_API_KEY goes where the user says', async () => {
    const dir = await configWith({ default: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } });
    other.clearRequests();
    const r = await spawnCli(['campaigns', 'sent', '--base-url', other.url], { env: { EMAIL_CONFIG_DIR: dir, EMAIL_API_KEY: other.apiKey } });
    expect(r.code, r.stderr).toBe(0);
    expect(other.requestCount()).toBeGreaterThan(0);
  });

  it('doctor fails the base URL check with the same words and sends the key nowhere', async () => {
    const dir = await configWith({ default: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } });
    other.clearRequests();
    const doctor = await spawnCli(['doctor', '--json', '--base-url', other.url], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(doctor.code).toBe(1);
    expect(checksOf(doctor.stdout)['base URL']).toMatchObject({ status: 'fail', detail: expect.stringContaining('refusing to send it there') });
    expect(other.requestCount()).toBe(0);
  });

  it('completion (__ids, run on TAB) never uses a base URL typed on the line: it asks the profile\'s own', async () => {
    const dir = await configWith({ default: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } });
    other.clearRequests();
    const r = await spawnCli(['__ids', 'campaign', '--base-url', other.url], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f-]{36}\t/m);
    expect(other.requestCount()).toBe(0);
  });
});

describe('a profile named when none is stored', () => {
  for (const [how, argv, env] of [
    ['EMAIL_PROFILE', [], { EMAIL_PROFILE: 'nope' }],
    ['--profile', ['--profile', 'nope'], {}],
  ] as const) {
    it(`by ${how}: exit 4 with the login hint (no key configured), and doctor says the same`, async () => {
      const dir = tempConfigDir();
      const r = await spawnCli(['api', '/email/clients/scheduled', ...argv], { env: { EMAIL_CONFIG_DIR: dir, ...env } });
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toMatch(/^error: no profile named "nope" \((named by EMAIL_PROFILE|given with --profile)\), and no profile is stored$/m);
      expect(r.stderr).toMatch(/^hint: .*`email auth login --profile nope --base-url <url>`/m);
      const doctor = await spawnCli(['doctor', '--json', ...argv], { env: { EMAIL_CONFIG_DIR: dir, ...env } });
      expect(doctor.code).toBe(4);
      expect(checksOf(doctor.stdout).profile).toMatchObject({ status: 'fail', detail: expect.stringMatching(/no profile is stored/) });
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
