// Node's compile cache, as bin/email turns it on (issue 18): where it lives,
// the directories it refuses, and that nothing in it can make a run fail or
// run other code. The cache is code the user will run, so it is kept only in
// a private directory of theirs; and Node checks each entry against a hash of
// the source and of the cached data, so a damaged or swapped entry is
// compiled from source again and rewritten.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, requireBuild } from '../helpers/cli.js';
import { serve, type Served } from '../helpers/scripted-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const isRoot = typeof process.geteuid === 'function' && process.geteuid() === 0;

let server: Served;
let baseUrl: string;
beforeAll(async () => {
  requireBuild();
  // Every request answered 200 with an empty JSON list: enough for a read to make its one request.
  server = await serve(() => ({ status: 200, body: [] }));
  baseUrl = server.url;
});
afterAll(() => server.close());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs bin/email with only these variables (and PATH), as a user's shell would. */
function email(args: string[], env: Record<string, string>, cwd = tmpdir()): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH!, EMAIL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'email-cc-config-')), EMAIL_API_KEY: 'k-12345678', EMAIL_BASE_URL: baseUrl, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Whether a run with NODE_DEBUG_NATIVE=COMPILE_CACHE took the bundle from the cache (Node 22 and 24+ word it differently). */
function accepted(stderr: string, bundle: string): boolean {
  return stderr.split('\n').some((line) => line.startsWith('[compile cache] ') && line.includes(` ${join(root, bundle)} was accepted`));
}

/** Every file under dir, recursively (a missing dir has none). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

const completion = readFileSync(join(root, 'completions', 'email.bash'), 'utf8');
/** What most runs do, each with the output it must give: a group's help, completion, reads, --jq (which loads dist/jq.cjs and its WebAssembly). */
const RUNS: { args: string[]; expected: (r: Run) => void }[] = [
  { args: ['campaigns', '--help'], expected: (r) => expect(r.stdout).toMatch(/^Usage: email campaigns/) },
  { args: ['completion', 'bash'], expected: (r) => expect(r.stdout).toBe(completion) },
  { args: ['campaigns', 'sent', '--json'], expected: (r) => expect(r.stdout).toBe('[]\n') },
  { args: ['api', '/email/clients/scheduled'], expected: (r) => expect(r.stdout).toBe('[]\n') },
  { args: ['campaigns', 'sent', '--json', '--jq', 'length'], expected: (r) => expect(r.stdout).toBe('0\n') },
];

async function runAll(env: Record<string, string>, label: string): Promise<void> {
  for (const { args, expected } of RUNS) {
    const r = await email(args, env);
    expect(r.code, `${label}: email ${args.join(' ')}: ${r.stderr}`).toBe(0);
    expect(r.stderr, `${label}: email ${args.join(' ')}`).toBe('');
    expected(r);
  }
}

describe("where Node's compile cache is kept", () => {
  it('in $XDG_CACHE_HOME/email-cli, created 0700, and the next run takes each bundle from it', async () => {
    const xdg = mkdtempSync(join(tmpdir(), 'email-cc-xdg-'));
    const env = { HOME: mkdtempSync(join(tmpdir(), 'email-cc-home-')), XDG_CACHE_HOME: xdg };
    await runAll(env, 'first run');
    const dir = join(xdg, 'email-cli');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(filesUnder(dir).length).toBeGreaterThanOrEqual(3);
    expect(filesUnder(env.HOME)).toEqual([]);
    const traced = await email(['campaigns', 'sent', '--json'], { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
    expect(traced.stdout).toBe('[]\n');
    for (const bundle of ['dist/cli.cjs', 'dist/vendor/undici.cjs']) expect(accepted(traced.stderr, bundle), bundle).toBe(true);
  });

  it('in ~/.cache/email-cli when XDG_CACHE_HOME is unset, empty or relative; a relative HOME writes nothing in the working directory', async () => {
    for (const xdg of [undefined, '', 'relative/cache']) {
      const home = mkdtempSync(join(tmpdir(), 'email-cc-home-'));
      const cwd = mkdtempSync(join(tmpdir(), 'email-cc-cwd-'));
      const r = await email(['campaigns', '--help'], { HOME: home, ...(xdg === undefined ? {} : { XDG_CACHE_HOME: xdg }) }, cwd);
      expect(r.code).toBe(0);
      expect(statSync(join(home, '.cache', 'email-cli')).mode & 0o777, String(xdg)).toBe(0o700);
      expect(readdirSync(cwd), String(xdg)).toEqual([]);
    }
    const cwd = mkdtempSync(join(tmpdir(), 'email-cc-cwd-'));
    const r = await email(['campaigns', '--help'], { HOME: 'home', XDG_CACHE_HOME: 'cache' }, cwd);
    expect(r.code).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe("directories Node's compile cache is never kept in (bin/email's privateDir)", () => {
  /** A cache directory prepared by `arrange`; after a run, whether anything was written into what it points to. */
  async function writtenInto(arrange: (dir: string) => string, extraEnv: Record<string, string> = {}): Promise<string[]> {
    const xdg = mkdtempSync(join(tmpdir(), 'email-cc-xdg-'));
    const watched = arrange(join(xdg, 'email-cli'));
    const r = await email(['campaigns', 'sent', '--json'], { HOME: mkdtempSync(join(tmpdir(), 'email-cc-home-')), XDG_CACHE_HOME: xdg, ...extraEnv });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('[]\n');
    return filesUnder(watched);
  }

  it('a link, even to a private directory of the user', async () => {
    const written = await writtenInto((dir) => {
      const target = mkdtempSync(join(tmpdir(), 'email-cc-target-'));
      symlinkSync(target, dir);
      return target;
    });
    expect(written).toEqual([]);
  });

  it('a directory the group or others can write to', async () => {
    for (const mode of [0o770, 0o707, 0o777]) {
      const written = await writtenInto((dir) => {
        mkdirSync(dir);
        chmodSync(dir, mode);
        return dir;
      });
      expect(written, mode.toString(8)).toEqual([]);
    }
  });

  it('a private directory under a directory others can write to without the sticky bit (they could swap it for a link)', async () => {
    for (const mode of [0o777, 0o775, 0o757]) {
      const xdg = mkdtempSync(join(tmpdir(), 'email-cc-xdg-'));
      const dir = join(xdg, 'email-cli');
      mkdirSync(dir, { mode: 0o700 });
      chmodSync(xdg, mode);
      const r = await email(['campaigns', 'sent', '--json'], { HOME: mkdtempSync(join(tmpdir(), 'email-cc-home-')), XDG_CACHE_HOME: xdg });
      expect(r.code, r.stderr).toBe(0);
      expect(filesUnder(dir), mode.toString(8)).toEqual([]);
    }
  });

  it('a directory further up that others can write to, or a link on the way', async () => {
    const top = mkdtempSync(join(tmpdir(), 'email-cc-top-'));
    mkdirSync(join(top, 'a', 'b'), { recursive: true });
    chmodSync(join(top, 'a'), 0o777);
    const linked = mkdtempSync(join(tmpdir(), 'email-cc-linked-'));
    symlinkSync(linked, join(top, 'link'));
    for (const xdg of [join(top, 'a', 'b'), join(top, 'link')]) {
      const r = await email(['campaigns', 'sent', '--json'], { HOME: mkdtempSync(join(tmpdir(), 'email-cc-home-')), XDG_CACHE_HOME: xdg });
      expect(r.code, r.stderr).toBe(0);
      expect(filesUnder(top), xdg).toEqual([]);
      expect(filesUnder(linked), xdg).toEqual([]);
    }
  });

  it('is kept under a directory others can write to with the sticky bit (as /tmp), which no one else can swap', async () => {
    const xdg = mkdtempSync(join(tmpdir(), 'email-cc-xdg-'));
    chmodSync(xdg, 0o1777);
    const r = await email(['campaigns', 'sent', '--json'], { HOME: mkdtempSync(join(tmpdir(), 'email-cc-home-')), XDG_CACHE_HOME: xdg });
    expect(r.code, r.stderr).toBe(0);
    expect(filesUnder(join(xdg, 'email-cli')).length).toBeGreaterThan(0);
  });

  it('with NODE_DISABLE_COMPILE_CACHE=1: nothing is created', async () => {
    const xdg = mkdtempSync(join(tmpdir(), 'email-cc-xdg-'));
    const r = await email(['campaigns', 'sent', '--json'], { HOME: mkdtempSync(join(tmpdir(), 'email-cc-home-')), XDG_CACHE_HOME: xdg, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(r.code).toBe(0);
    expect(readdirSync(xdg)).toEqual([]);
  });

  describe.skipIf(!isRoot)('another user’s (needs root, to give a directory away)', () => {
    it("a cache directory another user owns, and, under `sudo -E` (root with the user's HOME), nothing root-owned left in their home", async () => {
      const written = await writtenInto((dir) => {
        mkdirSync(dir, { mode: 0o700 });
        chownSync(dir, 12345, 12345);
        return dir;
      });
      expect(written).toEqual([]);
      const home = mkdtempSync(join(tmpdir(), 'email-cc-userhome-'));
      chownSync(home, 12345, 12345);
      const r = await email(['campaigns', 'sent', '--json'], { HOME: home });
      expect(r.code, r.stderr).toBe(0);
      expect(readdirSync(home)).toEqual([]);
    });

    it('a private directory of ours under a directory another user owns (they could swap it for a link)', async () => {
      const theirs = mkdtempSync(join(tmpdir(), 'email-cc-theirs-'));
      const dir = join(theirs, 'email-cli');
      mkdirSync(dir, { mode: 0o700 });
      chownSync(theirs, 12345, 12345);
      const r = await email(['campaigns', 'sent', '--json'], { HOME: mkdtempSync(join(tmpdir(), 'email-cc-home-')), XDG_CACHE_HOME: theirs });
      expect(r.code, r.stderr).toBe(0);
      expect(filesUnder(dir)).toEqual([]);
    });
  });
  if (!isRoot) console.warn('not root: the test of a directory another user owns is skipped (it needs chown)');
});

describe('a damaged compile cache never matters (issue 18.4)', () => {
  /** Ways a cache file can be damaged (a disk fault, a crafted file from a restored CI cache), each applied to every file. */
  const DAMAGE: Record<string, (file: string, originals: Map<string, Buffer>) => void> = {
    'eight bytes flipped in the middle': (file) => {
      const data = readFileSync(file);
      for (let i = 0; i < 8; i++) data[Math.floor(data.length / 2) + i] ^= 0xff;
      writeFileSync(file, data);
    },
    'bytes flipped in the header': (file) => {
      const data = readFileSync(file);
      for (let i = 0; i < Math.min(32, data.length); i += 3) data[i] ^= 0x5a;
      writeFileSync(file, data);
    },
    'the last bytes flipped': (file) => {
      const data = readFileSync(file);
      for (let i = 1; i <= Math.min(8, data.length); i++) data[data.length - i] ^= 0xff;
      writeFileSync(file, data);
    },
    'truncated to half': (file) => truncateSync(file, Math.floor(statSync(file).size / 2)),
    'truncated to nothing': (file) => truncateSync(file, 0),
    'replaced by garbage of the same size': (file) => writeFileSync(file, garbage(statSync(file).size, 1)),
    'replaced by a little garbage': (file) => writeFileSync(file, garbage(40, 2)),
    "replaced by another bundle's entry (header and all)": (file, originals) => {
      const all = [...originals.keys()];
      writeFileSync(file, originals.get(all[(all.indexOf(file) + 1) % all.length]!)!);
    },
  };

  it.each(Object.keys(DAMAGE))('%s: the next runs exit 0 with the right output, and the entries are made again', async (damage) => {
    const xdg = mkdtempSync(join(tmpdir(), 'email-cc-damaged-'));
    const env = { HOME: mkdtempSync(join(tmpdir(), 'email-cc-home-')), XDG_CACHE_HOME: xdg };
    await runAll(env, 'making the cache');
    const files = filesUnder(join(xdg, 'email-cli'));
    expect(files.length).toBeGreaterThanOrEqual(3); // cli.cjs, vendor/undici.cjs, jq.cjs
    const originals = new Map(files.map((file) => [file, readFileSync(file)]));
    for (const file of files) DAMAGE[damage]!(file, originals);
    await runAll(env, `after damage (${damage})`);
    await runAll(env, `the run after that (${damage})`);
    // Node rewrote what it refused: the program's bundle is taken from the cache again.
    const traced = await email(['campaigns', 'sent', '--json'], { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
    expect(traced.stdout).toBe('[]\n');
    expect(accepted(traced.stderr, 'dist/cli.cjs')).toBe(true);
  }, 60_000);
});

/** Deterministic bytes that are not a cache (xorshift). */
function garbage(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  let x = 0x9e3779b9 ^ seed;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
