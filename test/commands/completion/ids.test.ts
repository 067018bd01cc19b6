// `email __ids <resource>`: the ids completion offers (issue 28.1), asked of
// the sandbox, cached privately for a minute, and the lists a profile used.
// The shells' side is in test/e2e/completion-ids.test.ts.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openConfig } from '../../../src/core/config.js';
import { SEED_LIST_IDS } from '../../../src/sandbox/index.js';
import { serve } from '../../helpers/scripted-server.js';
import { runCli, tempConfigDir } from '../../helpers/cli.js';
import { useCommandSandbox } from '../../helpers/sandbox.js';

const sb = useCommandSandbox();

/** A cache directory of the test's own, and the completion files in it. */
function cacheHome() {
  const home = mkdtempSync(join(tmpdir(), 'email-ids-cache-'));
  const dir = join(home, 'email-cli', 'completion');
  return { home, dir, files: () => readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => join(dir, f)) };
}

const lineSet = (text: string) => text.split('\n').filter(Boolean).sort();

describe('email __ids', () => {
  it('offers the ids of sent and scheduled campaigns, each with its name after a tab', async () => {
    const { home } = cacheHome();
    const r = await sb.email(['__ids', 'campaign'], { env: { XDG_CACHE_HOME: home } });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const expected = sb.sandbox.seed.campaigns.filter((c) => c.Status === 'Sent' || c.Status === 'Scheduled').map((c) => `${c.CampaignID}\t${c.Name}`);
    expect(expected.length).toBeGreaterThan(2);
    expect(lineSet(r.stdout)).toEqual(expected.sort());
  });

  it('offers smart email ids with their names', async () => {
    const { home } = cacheHome();
    const r = await sb.email(['__ids', 'smart-email'], { env: { XDG_CACHE_HOME: home } });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(lineSet(r.stdout)).toEqual(sb.sandbox.seed.smartEmails.map((e) => `${e.ID}\t${e.Name}`).sort());
  });

  it('answers from its cache for a minute without asking the service, then asks again', async () => {
    const { home, files } = cacheHome();
    const env = { XDG_CACHE_HOME: home };
    const first = await sb.emailSent(['__ids', 'campaign'], { env });
    expect(first.sent.map((q) => q.path).sort()).toEqual(['/email/clients/campaigns', '/email/clients/scheduled']);
    const again = await sb.emailSent(['__ids', 'campaign'], { env });
    expect(again.sent).toEqual([]);
    expect(again.stdout).toBe(first.stdout);
    // A minute later (the answer's time moved back): asked again.
    const [file] = files();
    const stored = JSON.parse(readFileSync(file!, 'utf8'));
    stored.answers.campaign.at -= 61_000;
    writeFileSync(file!, JSON.stringify(stored));
    expect((await sb.emailSent(['__ids', 'campaign'], { env })).sent).toHaveLength(2);
  });

  it('keeps its cache private: a 0600 file in a 0700 directory, holding neither the key nor anything of it', async () => {
    const { home, dir, files } = cacheHome();
    await sb.email(['__ids', 'campaign'], { env: { XDG_CACHE_HOME: home } });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(files()).toHaveLength(1);
    expect(statSync(files()[0]!).mode & 0o777).toBe(0o600);
    const text = readFileSync(files()[0]!, 'utf8');
    expect(text).not.toContain(sb.sandbox.apiKey);
    expect(text).toContain(sb.sandbox.seed.campaigns[0]!.CampaignID);
  });

  it('keeps one cache per profile and base URL', async () => {
    const { home, files } = cacheHome();
    const configDir = tempConfigDir();
    const profile = { baseUrl: sb.sandbox.url, apiKey: sb.sandbox.apiKey };
    await (await openConfig({ EMAIL_CONFIG_DIR: configDir })).write({ defaultProfile: 'a', profiles: { a: profile, b: profile } });
    const env = { XDG_CACHE_HOME: home, EMAIL_CONFIG_DIR: configDir, EMAIL_API_KEY: undefined, EMAIL_BASE_URL: undefined };
    const a = await sb.emailSent(['__ids', 'smart-email'], { env });
    const b = await sb.emailSent(['__ids', 'smart-email', '--profile', 'b'], { env });
    expect([a.sent.length, b.sent.length]).toEqual([1, 1]);
    expect(files()).toHaveLength(2);
    expect((await sb.emailSent(['__ids', 'smart-email', '--profile', 'a'], { env })).sent).toEqual([]);
  });

  it('prints nothing, on stdout or stderr, and exits 0 when the service cannot be reached or refuses the key', async () => {
    const { home, files } = cacheHome();
    const offline = await runCli(['__ids', 'campaign'], { env: { XDG_CACHE_HOME: home, EMAIL_API_KEY: 'k', EMAIL_BASE_URL: 'http://127.0.0.1:9' } });
    expect(offline).toEqual({ code: 0, stdout: '', stderr: '' });
    const refused = await sb.email(['__ids', 'campaign'], { env: { XDG_CACHE_HOME: home, EMAIL_API_KEY: 'not-the-key' } });
    expect(refused).toEqual({ code: 0, stdout: '', stderr: '' });
    const noKey = await runCli(['__ids', 'smart-email'], { env: { XDG_CACHE_HOME: home } });
    expect(noKey).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(files()).toEqual([]);
  });

  it('shows the controls of a name as escapes, so a name cannot rewrite the screen or split a line', async () => {
    const { home } = cacheHome();
    const id = 'c0ffee00-0000-4000-8000-000000000001';
    const server = await serve((call) =>
      call.url === '/email/clients/scheduled' ? { status: 200, body: [{ CampaignID: id, Name: 'Launch\u001b[2J\tnow\nrm' }] } : { status: 200, body: [] },
    );
    try {
      const r = await runCli(['__ids', 'campaign'], { env: { XDG_CACHE_HOME: home, EMAIL_API_KEY: 'k', EMAIL_BASE_URL: server.url } });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toBe(`${id}\tLaunch\\x1b[2J\\tnow\\nrm\n`);
    } finally {
      await server.close();
    }
  });

  it('offers no word but an id from a cache file someone else wrote', async () => {
    const { home, dir, files } = cacheHome();
    const env = { XDG_CACHE_HOME: home };
    await sb.email(['subscribers', 'add', '--list', SEED_LIST_IDS.newsletter, '--email', 'cache-file@example.com', '--name', 'C', '--consent', 'yes'], { env });
    expect(files()).toHaveLength(1);
    const stored = JSON.parse(readFileSync(files()[0]!, 'utf8'));
    stored.lists.push({ id: '$(touch /tmp/pwned)', at: Date.now() }, { id: 'x y', name: 'z', at: 1 });
    writeFileSync(files()[0]!, JSON.stringify(stored));
    expect((await sb.email(['__ids', 'list'], { env })).stdout).toBe(`${SEED_LIST_IDS.newsletter}\n`);
    writeFileSync(files()[0]!, 'not json');
    expect(await sb.email(['__ids', 'list'], { env })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(dir).toBeTruthy();
  });

  it('uses no cache directory that other users can write to, and still answers', async () => {
    const { home, dir } = cacheHome();
    mkdirSync(join(home, 'email-cli'), { mode: 0o700 });
    chmodSync(join(home, 'email-cli'), 0o777);
    const r = await sb.emailSent(['__ids', 'campaign'], { env: { XDG_CACHE_HOME: home } });
    expect(r.stdout).not.toBe('');
    expect(() => readdirSync(dir)).toThrow();
  });
});

describe('lists used before', () => {
  const { newsletter, customers } = SEED_LIST_IDS;

  it('remembers the lists a command used at the service, the latest first, with the names an answer showed', async () => {
    const { home } = cacheHome();
    const env = { XDG_CACHE_HOME: home };
    const add = (list: string) => sb.email(['subscribers', 'add', '--list', list, '--email', 'lists-used@example.com', '--name', 'Ada', '--consent', 'yes'], { env });
    expect(await sb.email(['__ids', 'list'], { env })).toEqual({ code: 0, stdout: '', stderr: '' });
    await add(customers);
    expect((await sb.email(['__ids', 'list'], { env })).stdout).toBe(`${customers}\n`);
    await add(newsletter);
    expect((await sb.email(['__ids', 'list'], { env })).stdout).toBe(`${newsletter}\n${customers}\n`);
    const shown = await sb.email(['subscribers', 'lists', '--email', 'lists-used@example.com', '--json'], { env });
    const lists = JSON.parse(shown.stdout) as { ListID: string; ListName: string }[];
    expect(lists.map((l) => l.ListID).sort()).toEqual([newsletter, customers].sort());
    expect(lineSet((await sb.email(['__ids', 'list'], { env })).stdout)).toEqual(lists.map((l) => `${l.ListID}\t${l.ListName}`).sort());
  });

  it('remembers no list of a command that failed or that did not reach the service', async () => {
    const { home } = cacheHome();
    const env = { XDG_CACHE_HOME: home };
    const missing = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
    const failed = await sb.email(['subscribers', 'add', '--list', missing, '--email', 'ada@example.com', '--name', 'Ada', '--consent', 'yes'], { env });
    expect(failed.code).not.toBe(0);
    const receiver = await serve(() => ({ status: 200 }));
    try {
      const trigger = await sb.email(['webhooks', 'trigger', '--to', `${receiver.url}/hook`, '--list', missing], { env });
      expect(trigger.code, trigger.stderr).toBe(0);
    } finally {
      await receiver.close();
    }
    expect((await sb.email(['__ids', 'list'], { env })).stdout).toBe('');
  });
});
