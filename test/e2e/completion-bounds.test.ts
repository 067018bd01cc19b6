// What completion reads, keeps and shows, whatever the service answers
// (CLI.md "completion", "secrets"; issue 33.5, 33.6, 33.8): bin/email
// __ids, and the committed scripts in real shells, against a loopback server
// that answers a huge list, names that echo the key, names with backslashes.
// Peak memory is read from /proc as a bound, never a timing.
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, ftruncateSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdCache } from '../../src/core/id-cache.js';
import { requireBuild, startCli } from '../helpers/cli.js';
import { fishCompleteDescribedAsync, installed, zshListAsync } from '../helpers/completion.js';
import { peakResidentMiB } from '../helpers/proc.js';
import { serve, type Served } from '../helpers/scripted-server.js';

const KEY = 'sk_live_4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const uuid = (n: number) => `${n.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const procStatus = existsSync('/proc/self/status');

/** Sent campaigns the server answers, by the test; scheduled ones are none. */
let sent = '[]';
let server: Served;
beforeAll(async () => {
  requireBuild();
  server = await serve((call) => {
    if (call.url.startsWith('/email/clients/scheduled')) return { status: 200, body: '[]' };
    if (call.url.startsWith('/email/clients/campaigns')) return { status: 200, body: sent };
    return undefined;
  });
});
afterAll(() => server.close());

const campaigns = (count: number, name: (i: number) => string) => JSON.stringify(Array.from({ length: count }, (_, i) => ({ CampaignID: uuid(i + 1), Name: name(i) })));

function env(cache: string): Record<string, string> {
  return { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: KEY, XDG_CACHE_HOME: cache };
}

/** `email __ids campaign`, its output, and its peak resident memory in MiB, read from /proc while it runs. */
async function ids(cache: string): Promise<{ code: number | null; stdout: string; peakMiB: number }> {
  const run = startCli(['__ids', 'campaign'], { env: env(cache) });
  let peakMiB = 0;
  const poll = setInterval(() => (peakMiB = Math.max(peakMiB, peakResidentMiB(run.child.pid!) ?? 0)), 5);
  const code = await run.exited;
  clearInterval(poll);
  return { code, stdout: run.output().stdout, peakMiB };
}

const cacheFiles = (cache: string) => {
  const dir = join(cache, 'email-cli', 'completion');
  return existsSync(dir) ? readdirSync(dir).map((f) => join(dir, f)) : [];
};

describe('a huge answer', () => {
  it.skipIf(!procStatus)('300,000 campaigns (about 21 MB): memory bounded, at most a thousand ids, a cache the next TAB reads', async () => {
    sent = campaigns(300_000, (i) => `Campaign ${i}`);
    expect(sent.length).toBeGreaterThan(16 * 1024 * 1024);
    const cache = mkdtempSync(join(tmpdir(), 'email-completion-bounds-'));
    const first = await ids(cache);
    expect(first.code).toBe(0);
    expect(first.stdout.split('\n').filter(Boolean).length).toBeLessThanOrEqual(1000);
    // A bound, not a timing: the unbounded read peaked at 326 MB.
    expect(first.peakMiB).toBeLessThan(150);
    for (const file of cacheFiles(cache)) expect(statSync(file).size).toBeLessThan(1024 * 1024);
    const asked = server.calls.length;
    const again = await ids(cache);
    expect(again.stdout).toBe(first.stdout);
    expect(server.calls.length, 'the next TAB asks the service again').toBe(asked);
  }, 60_000);

  it('8,000 campaigns in under 1 MiB: the first thousand offered and cached, the next TAB from the cache', async () => {
    sent = campaigns(8_000, (i) => `Campaign ${i}`);
    expect(sent.length).toBeLessThan(1024 * 1024);
    const cache = mkdtempSync(join(tmpdir(), 'email-completion-bounds-'));
    const first = await ids(cache);
    const lines = first.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1000);
    expect(lines[0]).toBe(`${uuid(1)}\tCampaign 0`);
    const [file] = cacheFiles(cache);
    expect(JSON.parse(readFileSync(file!, 'utf8')).answers.campaign.entries).toHaveLength(1000);
    const asked = server.calls.length;
    expect((await ids(cache)).stdout).toBe(first.stdout);
    expect(server.calls.length).toBe(asked);
  }, 60_000);
});

describe('a cache file too large', () => {
  it.skipIf(!procStatus)('is not read: its size is checked first, and the service is asked', async () => {
    sent = campaigns(3, (i) => `Campaign ${i}`);
    const cache = mkdtempSync(join(tmpdir(), 'email-completion-bounds-'));
    const cacheEnv = env(cache);
    const { path } = (await IdCache.open(cacheEnv, { profile: '', baseUrl: server.url }))!;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // 200 MB of nothing (a sparse file): read whole, it would cost that much memory.
    const fd = openSync(path, 'w', 0o600);
    ftruncateSync(fd, 200 * 1024 * 1024);
    closeSync(fd);
    const asked = server.calls.length;
    const run = await ids(cache);
    expect(run.stdout.split('\n').filter(Boolean)).toEqual([`${uuid(1)}\tCampaign 0`, `${uuid(2)}\tCampaign 1`, `${uuid(3)}\tCampaign 2`]);
    expect(run.peakMiB).toBeLessThan(150);
    expect(server.calls.length).toBeGreaterThan(asked);
  }, 60_000);
});

describe('names that hold the key (CLI.md "secrets")', () => {
  // A name that echoes the key, one whose base64 (with a prefix, any offset) is cut at 80 characters, Basic base64(key:x).
  const names = [`Key ${KEY} echoed`, `Campaign: ${b64(`xx${KEY}`)}`, `${'n'.repeat(40)} ${b64(`a${KEY}`)}`, `Basic ${b64(`${KEY}:x`)}`];
  const pieces = (text: string) => {
    const found: string[] = [];
    for (const offset of ['', 'x', 'xx']) {
      const run = b64(`${offset}${KEY}`).slice(4, -4);
      for (let i = 0; i + 12 <= run.length; i++) if (text.includes(run.slice(i, i + 12))) found.push(run.slice(i, i + 12));
    }
    if (text.includes(KEY.slice(0, 12))) found.push(KEY.slice(0, 12));
    return found;
  };

  it('are masked before they are cached and before they are cut', async () => {
    sent = campaigns(names.length, (i) => names[i]!);
    const cache = mkdtempSync(join(tmpdir(), 'email-completion-bounds-'));
    const run = await ids(cache);
    expect(run.stdout).toContain(`${uuid(1)}\tKey *** echoed\n`);
    expect(run.stdout).toContain(`${uuid(4)}\tBasic ***\n`);
    expect(pieces(run.stdout)).toEqual([]);
    const [file] = cacheFiles(cache);
    expect(pieces(readFileSync(file!, 'utf8'))).toEqual([]);
    // From the cache now, where the key is not even read.
    expect(pieces((await ids(cache)).stdout)).toEqual([]);
  });

  it("a list's name from `subscribers lists` is masked before it is kept for --list <TAB>", async () => {
    const cache = mkdtempSync(join(tmpdir(), 'email-completion-bounds-'));
    const lists = JSON.stringify(names.map((name, i) => ({ ListID: uuid(100 + i), ListName: name, SubscriberState: 'Active' })));
    const listing = await serve((call) => (call.url.startsWith('/email/clients/listsforemail') ? { status: 200, body: lists } : undefined));
    try {
      const run = startCli(['subscribers', 'lists', '--email', 'ada@example.com', '--json'], { env: { ...env(cache), EMAIL_BASE_URL: listing.url } });
      expect(await run.exited, run.output().stderr).toBe(0);
    } finally {
      await listing.close();
    }
    const [file] = cacheFiles(cache);
    const text = readFileSync(file!, 'utf8');
    expect(JSON.parse(text).lists).toHaveLength(names.length);
    expect(pieces(text)).toEqual([]);
  });

  it.skipIf(!installed('fish'))('fish shows them masked', async () => {
    sent = campaigns(names.length, (i) => names[i]!);
    const shown = await fishCompleteDescribedAsync('email campaigns summary ', shellEnv());
    expect(shown).toHaveLength(names.length);
    expect(pieces(shown.join('\n'))).toEqual([]);
  });

  it.skipIf(!installed('zsh'))('zsh shows them masked', async () => {
    sent = campaigns(names.length, (i) => names[i]!);
    const shown = await zshListAsync('email campaigns summary ', shellEnv());
    expect(shown).toHaveLength(names.length);
    expect(pieces(shown.join('\n'))).toEqual([]);
  });
});

describe('names with backslashes, and names a shell would run', () => {
  // Short: zsh cuts a description at the terminal's width.
  const marker = join(mkdtempSync(join(tmpdir(), 'ecb-')), 'r');
  const names = ['C:\\new\\table', 'a \\\\ b', 'tab\\t end', `$(touch ${marker})`];
  afterAll(() => expect(existsSync(marker)).toBe(false));

  it.skipIf(!installed('zsh'))('zsh shows each backslash, and runs nothing', async () => {
    sent = campaigns(names.length, (i) => names[i]!);
    const shown = await zshListAsync('email campaigns summary ', shellEnv());
    expect(shown.map((line) => line.split(' -- ')[1])).toEqual(names);
  });

  it.skipIf(!installed('fish'))('fish shows each backslash, and runs nothing', async () => {
    sent = campaigns(names.length, (i) => names[i]!);
    const shown = await fishCompleteDescribedAsync('email campaigns summary ', shellEnv());
    expect(shown.map((line) => line.split('\t')[1])).toEqual(names);
  });
});

const BIN_DIR = fileURLToPath(new URL('../../bin', import.meta.url));

/** A shell's environment: bin/email first on PATH, caches of its own, the server's base URL and key. */
function shellEnv(): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EMAIL_')));
  const cache = mkdtempSync(join(tmpdir(), 'email-completion-bounds-'));
  return { ...inherited, PATH: `${BIN_DIR}:${process.env.PATH}`, EMAIL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'email-test-config-')), ...env(cache) };
}
