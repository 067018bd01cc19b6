// Packaging (issue 6): `npm pack` gives a tarball that installs into an empty
// prefix and runs from there, carrying only what the program needs. It is
// packed as a user or a release job would: from a clean clone of the project,
// after `npm ci` there, with nothing built beforehand (issue 25.6: a tarball
// packed so held no dist/). The build bundles every library into dist/, so
// the package has no runtime dependencies and installs without any network
// at all (--offline). The one exception is the keychain module (issue 21),
// native code that cannot be bundled: an optional dependency, whose prebuilt
// binary comes in an npm package of its platform. The tarball is installed
// twice, offline: with that module beside it (packed from the clone's
// node_modules, as the registry would serve it), and alone, where npm leaves
// the optional dependency out and keys go to the 0600 file.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKeyringSession, type KeyringSession } from '../helpers/keyring-session.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const compileCacheExists = typeof (createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'email-packaging-'));
const prefix = join(work, 'prefix');
const bin = join(prefix, 'node_modules', '.bin', 'email');
/** The same tarball installed without the optional keychain module. */
const barePrefix = join(work, 'bare');
const bareBin = join(barePrefix, 'node_modules', '.bin', 'email');
const KEYRING = '@napi-rs/keyring';
/** The clean clone the tarball is packed from. */
const tree = join(work, 'clone');

/** The caller's npm settings (npm test sets npm_config_*) must not steer the install. */
const cleanEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(npm_|EMAIL_)/i.test(k)) env[k] = v;
  return { ...env, HOME: work, EMAIL_CONFIG_DIR: join(work, 'config'), NO_COLOR: '1' };
};
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const email = (args: string[], env: Record<string, string> = {}) => execFileSync(bin, args, { cwd: work, env: { ...cleanEnv(), ...env }, encoding: 'utf8' });
/** Runs an installed bin/email to its end, whatever its exit code; `stdin` piped in. */
const run = (program: string, args: string[], env: Record<string, string | undefined> = {}, stdin = '') => {
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...cleanEnv(), ...env })) if (v !== undefined) merged[k] = v;
  const r = spawnSync(program, args, { cwd: work, env: merged, input: stdin, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

let files: string[];
let installOutput = '';
/** What `npm pack` printed on stderr: its scripts' output, the build's included. */
let packOutput = '';
let tarball: string;
/** The keychain module's packages as `npm ci` installed them in the clone (itself and its platform's binary), packed; empty without them. */
let keyringTarballs: string[] = [];

/**
 * The project as a clone of it holds it: a git clone of this checkout's commit
 * with the checkout's uncommitted work laid over it (the diff of tracked files,
 * then the untracked files git does not ignore), i.e. what the next commit
 * would hold, so the test covers work not yet committed. Nothing ignored
 * (dist/, node_modules/, caches) comes along. Not `git stash create`, which
 * leaves out untracked files (a new source file would be missing from the
 * pack) and writes to the repository, nor `git archive`, committed trees only.
 */
function cleanClone(into: string): void {
  const git = (args: string[], cwd: string, input?: Buffer) => execFileSync('git', args, { cwd, input, stdio: ['pipe', 'pipe', 'pipe'] });
  const head = git(['rev-parse', 'HEAD'], root).toString().trim();
  git(['clone', '--quiet', '--no-checkout', root, into], work);
  git(['checkout', '--quiet', '--detach', head], into);
  const diff = git(['diff', '--binary', 'HEAD'], root);
  if (diff.length > 0) git(['apply', '--whitespace=nowarn'], into, diff);
  const untracked = git(['ls-files', '-z', '--others', '--exclude-standard'], root).toString().split('\0').filter(Boolean);
  for (const file of untracked) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    copyFileSync(join(root, file), join(into, file));
  }
}

beforeAll(() => {
  cleanClone(tree);
  expect(existsSync(join(tree, 'dist'))).toBe(false);
  // npm's own cache, as the caller's npm has it (HOME is the work directory
  // below): `npm ci` takes what it can from there and asks the registry for the rest.
  const callerEnv = cleanEnv();
  callerEnv.HOME = process.env.HOME ?? callerEnv.HOME!;
  const cache = execFileSync('npm', ['config', 'get', 'cache'], { cwd: root, env: callerEnv, encoding: 'utf8' }).trim();
  const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--cache', cache], { cwd: tree, env: cleanEnv(), encoding: 'utf8' });
  if (ci.status !== 0) throw new Error(`npm ci in the clone failed: ${ci.stderr}`);
  // As a user or a release job packs: scripts run (the build is the package's prepack).
  const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: tree, env: cleanEnv(), encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack in the clone failed: ${pack.stderr}`);
  packOutput = pack.stderr;
  // Scripts' output may precede the JSON on stdout.
  const [packed] = JSON.parse(pack.stdout.slice(pack.stdout.search(/^\[/m)));
  files = packed.files.map((f: { path: string }) => f.path);
  tarball = join(work, packed.filename);
  const scope = join(tree, 'node_modules', '@napi-rs');
  const keyringDirs = existsSync(join(scope, 'keyring')) ? readdirSync(scope).filter((d) => d === 'keyring' || d.startsWith('keyring-')).map((d) => join(scope, d)) : [];
  if (keyringDirs.length >= 2) keyringTarballs = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work, ...keyringDirs], tree)).map((p: { filename: string }) => join(work, p.filename));
  else console.warn(`${KEYRING} and its platform package were not installed by npm ci (optional dependencies omitted?): the tarball is installed without them only`);
  const install = (into: string, extra: string[]) => {
    const r = spawnSync('npm', ['install', '--prefix', into, '--no-audit', '--no-fund', '--no-save', '--offline', tarball, ...extra], { cwd: work, env: cleanEnv(), encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm install --offline of the tarball${extra.length ? ` with ${KEYRING}` : ''} failed: ${r.stderr}`);
    return `${r.stdout}${r.stderr}`;
  };
  installOutput = install(prefix, keyringTarballs) + install(barePrefix, []);
}, 300_000);
// The clone's node_modules alone is over 100 MB.
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarball', () => {
  it('is packed from a clean clone by `npm pack` alone, which builds dist/ without an esbuild warning', () => {
    expect(files).toContain('dist/cli.cjs');
    // esbuild prints a warning as `▲ [WARNING] …`; the build fails on one, and none may show here either.
    expect(packOutput).not.toMatch(/\[WARNING\]/);
  });

  it('holds the program, completions, README, LICENSE and package.json, and nothing from src, test, bench or scripts', () => {
    for (const required of [
      'package.json',
      'README.md',
      'LICENSE',
      'bin/email',
      'bin/package.json',
      'dist/cli.cjs',
      'dist/vendor/undici.cjs',
      'dist/THIRD_PARTY_NOTICES.md',
      'dist/sandbox.cjs',
      'dist/jq.cjs',
      'dist/version.txt',
      'dist/help.txt',
      'dist/man/man1/email.1',
      'dist/man/man1/email-subscribers-import.1',
      'completions/email.bash',
      'completions/_email',
      'completions/email.fish',
    ]) {
      expect(files, required).toContain(required);
    }
    const unwanted = files.filter((f) => /^(src|test|bench|scripts|node_modules|\.bench-tmp)\//.test(f) || /\.(map|cache|ts)$/.test(f) || f === 'dist/meta.json');
    expect(unwanted).toEqual([]);
  });

  it('carries the licence notice of every library bundled into dist/, nested copies included', async () => {
    const { bundledPackageDirs } = await import('../../scripts/third-party-notices.mjs');
    const dirs: string[] = bundledPackageDirs(JSON.parse(readFileSync(join(tree, 'dist', 'meta.json'), 'utf8')));
    expect(dirs.length).toBeGreaterThan(10);
    // The installed copy, not the checkout's: this is what reaches users.
    const notices = readFileSync(join(prefix, 'node_modules', pkg.name, 'dist', 'THIRD_PARTY_NOTICES.md'), 'utf8');
    for (const dir of dirs) {
      const dep = JSON.parse(readFileSync(join(tree, dir, 'package.json'), 'utf8'));
      const heading = `## ${dep.name} ${dep.version} — `;
      expect(notices, dir).toContain(heading);
      // The section holds licence text (a copyright line or the licence's own words), not just a name.
      const section = notices.slice(notices.indexOf(heading)).split('\n## ')[0]!;
      expect(section, dir).toMatch(/copyright|permission/i);
    }
  });

  it('carries the notices of what a bundled package compiles in (jq, Oniguruma and decNumber inside jq-wasm)', () => {
    const notices = readFileSync(join(prefix, 'node_modules', pkg.name, 'dist', 'THIRD_PARTY_NOTICES.md'), 'utf8');
    for (const name of ['jq', 'Oniguruma', 'decNumber']) expect(notices, name).toMatch(new RegExp(`^## ${name}, inside jq-wasm — `, 'm'));
  });

  it('declares its license, engines, and no runtime dependency to download', () => {
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(pkg.engines.node).toMatch(/^>=22\./);
    expect(pkg.dependencies ?? {}).toEqual({});
    // The keychain module alone is not bundled (native code): optional, so an install never fails for want of it.
    expect(Object.keys(pkg.optionalDependencies ?? {})).toEqual([KEYRING]);
    // No script runs when the tarball is installed, and none is declared for
    // it: `npm pack` builds dist/ (prepack), a checkout builds it on bin/email's
    // first run, and scripts/ is not shipped.
    expect(pkg.scripts.preinstall ?? pkg.scripts.install ?? pkg.scripts.postinstall).toBeUndefined();
    expect(pkg.scripts.prepack).toBe('node scripts/build.mjs');
    expect(pkg.files).not.toContain('scripts/');
  });

  it('installs without running or declaring any script npm asks about (issue 13.18)', () => {
    expect(installOutput).not.toMatch(/install-scripts|allowScripts/);
    const installed = JSON.parse(readFileSync(join(prefix, 'node_modules', pkg.name, 'package.json'), 'utf8'));
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(installed.scripts?.[script], script).toBeUndefined();
  });

  it("the installed README's links to docs/ resolve there (issue 13.17)", () => {
    const installed = join(prefix, 'node_modules', pkg.name);
    const readme = readFileSync(join(installed, 'README.md'), 'utf8').replace(/```[\s\S]*?```/g, '');
    const targets = [...readme.matchAll(/\]\(([^)\s#]+)[^)]*\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
    expect(targets.length).toBeGreaterThan(3);
    for (const target of targets) expect(existsSync(join(installed, target)), target).toBe(true);
  });

  it('installed globally, its man pages are linked into <prefix>/share/man and read by man', () => {
    const global = join(work, 'global');
    const r = spawnSync('npm', ['install', '--global', '--prefix', global, '--no-audit', '--no-fund', '--offline', tarball], { cwd: work, env: cleanEnv(), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    for (const page of ['email', 'email-subscribers-import']) {
      const man = spawnSync('man', ['-M', join(global, 'share', 'man'), page], { env: { ...cleanEnv(), MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' }, encoding: 'utf8' });
      expect(man.status, man.stderr).toBe(0);
      expect(man.stdout).toMatch(new RegExp(`^NAME\\n +${page} +- `, 'm'));
    }
  });

  it('installs into an empty prefix and runs `email --version` and `email sandbox --help` from there', () => {
    expect(email(['--version'])).toBe(`${pkg.version}\n`);
    expect(email(['sandbox', '--help'])).toMatch(/^Usage: email sandbox \[options\]/);
    expect(email(['completion', 'bash'])).toBe(readFileSync(join(tree, 'completions', 'email.bash'), 'utf8'));
  });

  it("keeps Node's compile cache in the user's cache directory, private, and uses it on the next run (bin/email)", () => {
    // HOME is the work directory (cleanEnv); nothing is cached with the package, so this run makes it.
    const dir = join(work, '.cache', 'email-cli');
    rmSync(dir, { recursive: true, force: true });
    expect(email(['campaigns', '--help'])).toMatch(/^Usage: email campaigns/);
    if (!compileCacheExists) {
      console.warn(`Node ${process.versions.node} has no compile cache (module.enableCompileCache, Node 22.1+): the installed program compiles from source and writes nothing`);
      expect(existsSync(dir)).toBe(false);
      return;
    }
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [tag] = readdirSync(dir);
    const entries = () => readdirSync(join(dir, tag!)).map((name) => ({ name, ino: statSync(join(dir, tag!, name)).ino }));
    const first = entries();
    expect(first.length).toBeGreaterThan(0);
    // An entry Node accepted is not written again: the same files.
    expect(email(['campaigns', '--help'])).toMatch(/^Usage: email campaigns/);
    expect(entries()).toEqual(first);
  });

  it(`installs offline with ${KEYRING} beside it, and without it (an optional dependency npm could not fetch)`, () => {
    expect(existsSync(join(barePrefix, 'node_modules', 'email-cli', 'dist', 'cli.cjs'))).toBe(true);
    expect(existsSync(join(barePrefix, 'node_modules', KEYRING))).toBe(false);
    if (keyringTarballs.length) expect(existsSync(join(prefix, 'node_modules', KEYRING, 'package.json'))).toBe(true);
    // Help and completion from the bare install, as from the full one.
    expect(run(bareBin, ['completion', 'bash']).stdout).toBe(readFileSync(join(tree, 'completions', 'email.bash'), 'utf8'));
  });

  describe('against the installed sandbox', () => {
    let sandbox: ReturnType<typeof spawn>;
    let baseUrl: string;
    let apiKey: string;
    beforeAll(async () => {
      sandbox = spawn(bin, ['sandbox', '--port', '0', '--json'], { cwd: work, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      const ready = await new Promise<string>((resolve, reject) => {
        let out = '';
        sandbox.stdout!.on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        sandbox.on('error', reject);
        sandbox.on('close', (code) => reject(new Error(`sandbox exited ${code}`)));
      });
      ({ baseUrl, apiKey } = JSON.parse(ready));
    });
    afterAll(() => {
      sandbox?.kill('SIGINT');
    });

    it('reads from the service (`campaigns sent`) with only the installed files', () => {
      const sent = JSON.parse(email(['campaigns', 'sent', '--json'], { EMAIL_BASE_URL: baseUrl, EMAIL_API_KEY: apiKey }));
      expect(sent.length).toBeGreaterThan(0);
      expect(sent[0]).toHaveProperty('CampaignID');
    });

    it('runs a command that talks HTTP (doctor) with only the installed files', () => {
      const checks = JSON.parse(email(['doctor', '--json'], { EMAIL_BASE_URL: baseUrl, EMAIL_API_KEY: apiKey }));
      expect(checks.map((c: { status: string }) => c.status)).not.toContain('fail');
      expect(checks.find((c: { check: string }) => c.check === 'api key').status).toBe('ok');
    });

    describe('the keychain, from the installed package', () => {
      let session: KeyringSession | undefined;
      let reason = '';
      beforeAll(async () => {
        const started = await startKeyringSession();
        if (started.ok) session = started.session;
        else reason = started.reason;
      });
      afterAll(() => session?.stop());

      it(`with ${KEYRING} installed, auth login stores the key in the keychain and a read takes it from there`, (t) => {
        if (!keyringTarballs.length || !session) {
          console.warn(`skipped: ${!keyringTarballs.length ? `${KEYRING} is not installed in this checkout` : `no Secret Service could be started (${reason})`}`);
          return t.skip();
        }
        const dir = mkdtempSync(join(work, 'config-'));
        const env = { EMAIL_CONFIG_DIR: dir, ...session.env };
        const login = run(bin, ['auth', 'login', '--base-url', baseUrl, '--with-key'], env, apiKey);
        expect(login.code, login.stderr).toBe(0);
        expect(login.stderr).toMatch(/stored in the keychain/);
        expect(session.lookup(`email-cli:${dir}`, 'default')).toBe(apiKey);
        expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(apiKey);
        const read = run(bin, ['campaigns', 'sent', '--json'], env);
        expect(read.code, read.stderr).toBe(0);
      });

      it(`without ${KEYRING}, auth login keeps the key in the 0600 file and says so, even where a keychain exists`, () => {
        const dir = mkdtempSync(join(work, 'config-'));
        const env = { EMAIL_CONFIG_DIR: dir, ...session?.env };
        const login = run(bareBin, ['auth', 'login', '--base-url', baseUrl, '--with-key'], env, apiKey);
        expect(login.code, login.stderr).toBe(0);
        const file = join(dir, 'config.json');
        expect(login.stderr).toContain(`: the key is stored in ${file} (mode 0600)`);
        if (session) expect(login.stderr).toMatch(/no keychain here \(the keychain module \(@napi-rs\/keyring, an optional dependency\) is not installed\)/);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toMatchObject({ apiKey, keyStore: 'file' });
        expect(run(bareBin, ['campaigns', 'sent', '--json'], env).code).toBe(0);
      });

      it(`without ${KEYRING}, a profile whose key is in the keychain is one error naming the module, exit 4`, (t) => {
        if (!session) {
          console.warn(`skipped: no Secret Service could be started (${reason})`);
          return t.skip();
        }
        const dir = mkdtempSync(join(work, 'config-'));
        writeFileSync(join(dir, 'config.json'), JSON.stringify({ defaultProfile: 'default', profiles: { default: { baseUrl, keyStore: 'keychain' } } }), { mode: 0o600 });
        const read = run(bareBin, ['campaigns', 'sent'], { EMAIL_CONFIG_DIR: dir, ...session.env });
        expect(read.code, read.stderr).toBe(4);
        expect(read.stderr).toMatch(/^error: the key of profile "default" is in the keychain, which cannot be reached here \(the keychain module .* is not installed\)/);
        expect(read.stderr).toContain('--insecure-storage');
      });
    });
  });
});
