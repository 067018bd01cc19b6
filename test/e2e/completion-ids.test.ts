// Ids completed from the service (issue 28.1), end to end: the committed
// scripts in real bash, zsh and fish, calling bin/email (on PATH) against the
// sandbox, as a user's TAB would. The shells run without blocking this
// process, where the sandbox answers them.
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConfig } from '../../src/core/config.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { requireBuild, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { bashCompleteAsync as bashComplete, fishCompleteDescribedAsync as fishCompleteDescribed, installed, zshCompleteAllAsync as zshCompleteAll } from '../helpers/completion.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  requireBuild();
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.stop();
});

const BIN_DIR = fileURLToPath(new URL('../../bin', import.meta.url));

/** The shell's environment: bin/email first on PATH, a config and a cache directory of its own, nothing of the developer's EMAIL_*. */
function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EMAIL_')));
  return {
    ...inherited,
    PATH: `${BIN_DIR}:${process.env.PATH}`,
    EMAIL_CONFIG_DIR: tempConfigDir(),
    XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'email-completion-cache-')),
    EMAIL_API_KEY: sandbox.apiKey,
    EMAIL_BASE_URL: sandbox.url,
    ...extra,
  };
}

const campaignIds = () => sandbox.seed.campaigns.filter((c) => c.Status === 'Sent' || c.Status === 'Scheduled').map((c) => c.CampaignID);
const scheduledIds = () => sandbox.seed.campaigns.filter((c) => c.Status === 'Scheduled').map((c) => c.CampaignID);
const smartEmailIds = () => sandbox.seed.smartEmails.map((e) => e.ID);

describe('bash', () => {
  it('offers campaign ids after a campaign command and --campaign, smart email ids after transactional get, the ids alone', async () => {
    const env = shellEnv();
    expect((await bashComplete('email campaigns summary ', env)).sort()).toEqual(campaignIds().sort());
    const scheduled = scheduledIds();
    const prefix = scheduled[0]!.slice(0, 35);
    expect((await bashComplete(`email campaigns unschedule --campaign ${prefix}`, env)).sort()).toEqual(campaignIds().filter((id) => id.startsWith(prefix)).sort());
    expect((await bashComplete('email transactional get 5', env)).sort()).toEqual(smartEmailIds().sort());
  });

  it('asks the service once a minute: the next TAB is answered from the cache', async () => {
    const env = shellEnv();
    expect(await bashComplete('email campaigns preview ', env)).not.toEqual([]);
    const before = sandbox.requestCount();
    expect((await bashComplete('email campaigns unsubscribes ', env)).sort()).toEqual(campaignIds().sort());
    expect((await bashComplete('email campaigns open --campaign ', env)).sort()).toEqual(campaignIds().sort());
    expect(sandbox.requestCount()).toBe(before);
  });

  it('asks with the profile typed on the line', async () => {
    const configDir = tempConfigDir();
    await (await openConfig({ EMAIL_CONFIG_DIR: configDir })).write({
      defaultProfile: 'away',
      profiles: { away: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }, here: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } },
    });
    const env = shellEnv({ EMAIL_CONFIG_DIR: configDir });
    delete env.EMAIL_API_KEY;
    delete env.EMAIL_BASE_URL;
    expect(await bashComplete('email campaigns summary ', env)).toEqual([]);
    expect((await bashComplete('email --profile here campaigns summary ', env)).sort()).toEqual(campaignIds().sort());
    expect((await bashComplete('email campaigns summary --profile=here ', env)).sort()).toEqual(campaignIds().sort());
  });

  it('offers the lists used before for --list', async () => {
    const env = shellEnv();
    const list = sandbox.seed.lists[1]!.ListID;
    const added = await spawnCli(['subscribers', 'add', '--list', list, '--email', 'tab@example.com', '--name', 'Tab', '--consent', 'yes'], { env: envOf(env) });
    expect(added.code, added.stderr).toBe(0);
    expect(await bashComplete('email subscribers import people.csv --list ', env)).toEqual([list]);
  });
});

describe('a service that never answers', () => {
  let server: Server;
  let url: string;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    // Accepts every connection and never reads or answers.
    server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('gets nothing offered, within the time limit, and no error in the shell', async () => {
    const env = shellEnv({ EMAIL_BASE_URL: url });
    // A generous bound: the limit is about 1.5 s, start-up included; this is not a timing of performance.
    let started = Date.now();
    const r = await spawnCli(['__ids', 'campaign'], { env: envOf(env), timeoutMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    started = Date.now();
    expect(await bashComplete('email campaigns summary ', env)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe.skipIf(!installed('zsh'))('zsh', () => {
  it('completes campaign and smart email ids from the service', async () => {
    const env = shellEnv();
    const common = (ids: string[]) => ids.reduce((a, b) => a.slice(0, [...a].findIndex((ch, i) => ch !== b[i]) >>> 0 || a.length));
    expect(await zshCompleteAll(['email campaigns summary c', `email transactional get ${smartEmailIds()[0]!.slice(0, 2)}`], env)).toEqual([
      `email campaigns summary ${common(campaignIds())}`,
      `email transactional get ${common(smartEmailIds())}`,
    ]);
    expect(await zshCompleteAll(['email --profile default campaigns unschedule --campaign c'], env)).toEqual([`email --profile default campaigns unschedule --campaign ${common(campaignIds())}`]);
  });
});

describe.skipIf(!installed('fish'))('fish', () => {
  it('offers campaign and smart email ids, each with its name as the description', async () => {
    const env = shellEnv();
    const described = (ids: { id: string; name: string }[]) => ids.map(({ id, name }) => `${id}\t${name}`).sort();
    const campaigns = sandbox.seed.campaigns.filter((c) => c.Status === 'Sent' || c.Status === 'Scheduled').map((c) => ({ id: c.CampaignID, name: c.Name }));
    expect((await fishCompleteDescribed('email campaigns summary ', env)).sort()).toEqual(described(campaigns));
    expect((await fishCompleteDescribed('email transactional get --smart-email ', env)).sort()).toEqual(described(sandbox.seed.smartEmails.map((e) => ({ id: e.ID, name: e.Name }))));
  });
});

/** spawnCli's environment: the variables the shell would hand bin/email. */
function envOf(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return { EMAIL_CONFIG_DIR: env.EMAIL_CONFIG_DIR, XDG_CACHE_HOME: env.XDG_CACHE_HOME, EMAIL_API_KEY: env.EMAIL_API_KEY, EMAIL_BASE_URL: env.EMAIL_BASE_URL };
}
