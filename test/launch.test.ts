// The code cache of src/launch.ts. V8 decides in a process whether it takes
// a cache, so each case runs the built dist/launch.cjs in child processes:
// one makes a cache, the next says what it used and what the code returned.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from './helpers/cli.js';
import { cacheFileName, userCacheDir } from '../src/launch.js';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const launch = join(dist, 'launch.cjs');

// Loads PROGRAM with a BundleLoader, calls its value(), prints what each bundle's cache was; WRITE=beside|user then writes caches.
const DRIVER = `
const { basename, dirname } = require('node:path');
const { BundleLoader, writeCodeCache } = require(process.env.LAUNCH);
const loader = new BundleLoader({ userDir: process.env.USER_DIR || null });
const program = loader.load(process.env.PROGRAM);
const value = program.value();
const bundles = Object.fromEntries([...loader.loaded.values()].map((b) => [basename(b.file), b.cache ?? null]));
if (process.env.WRITE) for (const b of loader.loaded.values()) writeCodeCache(b.script, b.file, process.env.WRITE === 'beside' ? dirname(b.file) : process.env.USER_DIR);
process.stdout.write(JSON.stringify({ value, bundles }));
`;

interface Outcome {
  value: string;
  bundles: Record<string, 'beside' | 'user' | null>;
}

let work: string;
beforeAll(() => {
  requireBuild(new URL('../dist/launch.cjs', import.meta.url));
  work = mkdtempSync(join(tmpdir(), 'email-launch-'));
  writeFileSync(join(work, 'driver.cjs'), DRIVER);
});

/** A program bundle in a fresh directory: program.cjs, which requires vendor/lib.cjs twice. */
function programDir(word = 'one'): string {
  const dir = mkdtempSync(join(work, 'program-'));
  mkdirSync(join(dir, 'vendor'));
  writeFileSync(join(dir, 'program.cjs'), `exports.value = () => '${word}:' + require('./vendor/lib.cjs').name + ':' + (require('./vendor/lib.cjs') === require('./vendor/lib.cjs'));\n`);
  writeFileSync(join(dir, 'vendor', 'lib.cjs'), `exports.name = 'lib';\n`);
  return dir;
}

function privateDir(): string {
  const dir = mkdtempSync(join(work, 'cache-'));
  chmodSync(dir, 0o700);
  return dir;
}

function drive(dir: string, env: Record<string, string> = {}): Outcome {
  const out = execFileSync(process.execPath, [join(work, 'driver.cjs')], {
    env: { PATH: process.env.PATH, LAUNCH: launch, PROGRAM: join(dir, 'program.cjs'), ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out) as Outcome;
}

describe('the code cache', () => {
  it('is used from beside the bundles once written there; each sibling bundle is loaded once, with its own', () => {
    const dir = programDir();
    expect(drive(dir, { WRITE: 'beside' })).toEqual({ value: 'one:lib:true', bundles: { 'program.cjs': null, 'lib.cjs': null } });
    expect(readdirSync(dir).filter((f) => f.endsWith('.cache'))).toEqual([cacheFileName(join(dir, 'program.cjs'))]);
    expect(drive(dir)).toEqual({ value: 'one:lib:true', bundles: { 'program.cjs': 'beside', 'lib.cjs': 'beside' } });
  });

  it('is not used for a bundle edited since, even to the same length (V8 itself compares lengths only)', () => {
    const dir = programDir('one');
    drive(dir, { WRITE: 'beside' });
    const before = statSync(join(dir, 'program.cjs'));
    writeFileSync(join(dir, 'program.cjs'), `exports.value = () => 'two:' + require('./vendor/lib.cjs').name + ':' + (require('./vendor/lib.cjs') === require('./vendor/lib.cjs'));\n`);
    expect(statSync(join(dir, 'program.cjs')).size).toBe(before.size);
    expect(drive(dir)).toEqual({ value: 'two:lib:true', bundles: { 'program.cjs': null, 'lib.cjs': 'beside' } });
  });

  it('is not used for a bundle replaced by one of the same size and modification time, as npm installs a new release', () => {
    const dir = programDir('one');
    const file = join(dir, 'program.cjs');
    const NPM_DATE = 499162500; // 1985-10-26T08:15:00Z, the time npm gives every file it packs
    utimesSync(file, NPM_DATE, NPM_DATE);
    drive(dir, { WRITE: 'beside' });
    const before = statSync(file);
    writeFileSync(file, `exports.value = () => 'two:' + require('./vendor/lib.cjs').name + ':' + (require('./vendor/lib.cjs') === require('./vendor/lib.cjs'));\n`);
    utimesSync(file, NPM_DATE, NPM_DATE);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(file).size).toBe(before.size);
    expect(drive(dir)).toEqual({ value: 'two:lib:true', bundles: { 'program.cjs': null, 'lib.cjs': 'beside' } });
  });

  it('is named apart for bundles at different paths, so two installations keep a cache each', () => {
    expect(cacheFileName('/usr/lib/node_modules/email-cli/dist/cli.cjs')).not.toBe(cacheFileName('/home/a/email/dist/cli.cjs'));
    expect(cacheFileName('/a/dist/cli.cjs')).toMatch(new RegExp(`^cli\\.cjs\\.[0-9a-f]{8}\\.${process.versions.v8.replace(/\./g, '\\.')}-${process.arch}\\.cache$`));
  });

  it("is used from the user's cache directory when there is none beside the bundles", () => {
    const dir = programDir();
    const cache = privateDir();
    drive(dir, { USER_DIR: cache, WRITE: 'user' });
    expect(statSync(join(cache, cacheFileName(join(dir, 'program.cjs')))).mode & 0o777).toBe(0o600);
    expect(drive(dir, { USER_DIR: cache })).toEqual({ value: 'one:lib:true', bundles: { 'program.cjs': 'user', 'lib.cjs': 'user' } });
  });

  it('is not read from a cache directory others can write to, or from a link to a directory', () => {
    const dir = programDir();
    const cache = privateDir();
    drive(dir, { USER_DIR: cache, WRITE: 'user' });
    const link = join(work, `link-${Date.now()}`);
    symlinkSync(cache, link);
    expect(drive(dir, { USER_DIR: link }).bundles).toEqual({ 'program.cjs': null, 'lib.cjs': null });
    chmodSync(cache, 0o777);
    expect(drive(dir, { USER_DIR: cache }).bundles).toEqual({ 'program.cjs': null, 'lib.cjs': null });
  });

  it('is neither read nor written with NODE_DISABLE_COMPILE_CACHE=1, as Node does for its own', () => {
    const dir = programDir();
    drive(dir, { WRITE: 'beside' });
    expect(drive(dir, { NODE_DISABLE_COMPILE_CACHE: '1' }).bundles).toEqual({ 'program.cjs': null, 'lib.cjs': null });
  });

  it('lives in the platform cache directory (XDG_CACHE_HOME, else ~/.cache) under email-cli', () => {
    if (process.platform !== 'linux') return;
    expect(userCacheDir({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/a' })).toBe('/x/cache/email-cli');
    expect(userCacheDir({ HOME: '/home/a' })).toBe('/home/a/.cache/email-cli');
  });
});

// The program's own bundles: a cache made at the end of a read (after undici
// set --liftoff-only) must be one the next run's V8, started without that
// flag, accepts; src/core/v8-flags.ts puts the flags back first.
describe("the program's cache after a read", () => {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('[]');
  });
  let baseUrl: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // What each script below starts with: the loader, the program, and read() to run one `email api` read against the server above.
  const PROGRAM = `
const { join } = require('node:path');
const { BundleLoader, writeCodeCache } = require(process.env.LAUNCH);
const loader = new BundleLoader({ userDir: process.env.USER_DIR });
const cli = loader.load(join(process.env.DIR, 'cli.cjs'));
const sink = { write: () => true };
const io = { stdout: sink, stderr: sink, stdin: process.stdin, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
const env = { EMAIL_BASE_URL: process.env.BASE_URL, EMAIL_API_KEY: 'k-12345678', EMAIL_CONFIG_DIR: process.env.USER_DIR };
const read = () => cli.run(['api', '/email/clients/scheduled'], { io, env, cwd: process.cwd() });
const writeAll = () => { for (const b of loader.loaded.values()) writeCodeCache(b.script, b.file, process.env.USER_DIR); };
const caches = () => [...loader.loaded.values()].map((b) => b.cache ?? null);
`;
  const READ_THEN_CACHE = `${PROGRAM}
read().then((code) => {
  if (process.env.RESTORE) cli.restoreV8Flags();
  writeAll();
  process.stdout.write(JSON.stringify({ code, bundles: [...loader.loaded.keys()].map((f) => f.slice(process.env.DIR.length)) }));
});
`;
  const REPORT = `${PROGRAM}
loader.load(join(process.env.DIR, 'vendor', 'undici.cjs'));
process.stdout.write(JSON.stringify(caches()));
`;
  // Caches for the program, undici and conf, made with no flag changed.
  const CACHE_ALL = `${PROGRAM}
for (const bundle of ['undici.cjs', 'conf.cjs']) loader.load(join(process.env.DIR, 'vendor', bundle));
writeAll();
process.stdout.write('[]');
`;
  // conf is loaded after a read in `auth login` (the key is checked first):
  // its bundle is compiled while --liftoff-only is set.
  const READ_THEN_LOAD = `${PROGRAM}
if (process.env.AROUND) loader.around = cli.withDefaultV8Flags;
read().then(() => {
  loader.load(join(process.env.DIR, 'vendor', 'conf.cjs'));
  process.stdout.write(JSON.stringify(caches()));
});
`;

  function copyOfTheProgram(): string {
    // Without the build's caches beside it: only the user's directory counts here.
    const dir = mkdtempSync(join(work, 'dist-'));
    mkdirSync(join(dir, 'vendor'));
    for (const file of ['cli.cjs', 'vendor/undici.cjs', 'vendor/conf.cjs']) copyFileSync(join(dist, file), join(dir, file));
    return dir;
  }

  // A read talks to this process's server, so the child runs without blocking the event loop.
  function run(script: string, dir: string, cache: string, env: Record<string, string> = {}): Promise<unknown> {
    return new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        ['-e', script],
        { env: { PATH: process.env.PATH, LAUNCH: launch, DIR: `${dir}/`, USER_DIR: cache, BASE_URL: baseUrl, ...env }, encoding: 'utf8' },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout))),
      );
    });
  }

  it('is accepted by the next run once the flags are put back', async () => {
    const dir = copyOfTheProgram();
    const cache = privateDir();
    const read = await run(READ_THEN_CACHE, dir, cache, { RESTORE: '1' });
    expect(read).toEqual({ code: 0, bundles: ['cli.cjs', 'vendor/undici.cjs'] });
    expect(await run(REPORT, dir, cache)).toEqual(['user', 'user']);
  });

  it('…and refused without putting them back (what this guards against)', async () => {
    const dir = copyOfTheProgram();
    const cache = privateDir();
    await run(READ_THEN_CACHE, dir, cache);
    expect(await run(REPORT, dir, cache)).toEqual([null, null]);
  });

  it('is taken by a bundle loaded after a read, compiled with the flags at their defaults', async () => {
    const dir = copyOfTheProgram();
    const cache = privateDir();
    await run(CACHE_ALL, dir, cache);
    expect(await run(READ_THEN_LOAD, dir, cache, { AROUND: '1' })).toEqual(['user', 'user', 'user']);
    // Without: conf's cache is refused (V8 compares the flags when it takes a cache, too).
    expect(await run(READ_THEN_LOAD, dir, cache)).toEqual(['user', 'user', null]);
  });
});
