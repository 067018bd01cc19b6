// Packaging (issue 6): `npm pack` gives a tarball that installs into an empty
// prefix and runs from there, carrying only what the program needs. The
// build bundles every library into dist/, so the package has no runtime
// dependencies and installs without any network at all (--offline). The one
// exception is the keychain module (issue 21), native code that cannot be
// bundled: an optional dependency, whose prebuilt binary comes in an npm
// package of its platform. The tarball is installed twice, offline: with
// that module beside it (packed from this checkout's node_modules, as the
// registry would serve it), and alone, where npm leaves the optional
// dependency out and keys go to the 0600 file.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
let tarball: string;
/** The keychain module's packages as this checkout installed them (itself and its platform's binary), packed; empty without them. */
let keyringTarballs: string[] = [];

beforeAll(() => {
  // --ignore-scripts: pack the dist/ that `npm test` just built, without rebuilding it under other running tests.
  const [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], root));
  files = packed.files.map((f: { path: string }) => f.path);
  tarball = join(work, packed.filename);
  const scope = join(root, 'node_modules', '@napi-rs');
  const keyringDirs = existsSync(join(scope, 'keyring')) ? readdirSync(scope).filter((d) => d === 'keyring' || d.startsWith('keyring-')).map((d) => join(scope, d)) : [];
  if (keyringDirs.length >= 2) keyringTarballs = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work, ...keyringDirs], root)).map((p: { filename: string }) => join(work, p.filename));
  else console.warn(`${KEYRING} and its platform package are not in node_modules (npm ci --omit=optional?): the tarball is installed without them only`);
  const install = (into: string, extra: string[]) => {
    const r = spawnSync('npm', ['install', '--prefix', into, '--no-audit', '--no-fund', '--no-save', '--offline', tarball, ...extra], { cwd: work, env: cleanEnv(), encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm install --offline of the tarball${extra.length ? ` with ${KEYRING}` : ''} failed: ${r.stderr}`);
    return `${r.stdout}${r.stderr}`;
  };
  installOutput = install(prefix, keyringTarballs) + install(barePrefix, []);
}, 180_000);

describe('the packed tarball', () => {
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
    const dirs: string[] = bundledPackageDirs(JSON.parse(readFileSync(join(root, 'dist', 'meta.json'), 'utf8')));
    expect(dirs.length).toBeGreaterThan(10);
    // The installed copy, not the checkout's: this is what reaches users.
    const notices = readFileSync(join(prefix, 'node_modules', pkg.name, 'dist', 'THIRD_PARTY_NOTICES.md'), 'utf8');
    for (const dir of dirs) {
      const dep = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
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
    expect(pkg.engines.node).toMatch(/^>=20\./);
    expect(pkg.dependencies ?? {}).toEqual({});
    // The keychain module alone is not bundled (native code): optional, so an install never fails for want of it.
    expect(Object.keys(pkg.optionalDependencies ?? {})).toEqual([KEYRING]);
    // No script runs when the tarball is installed, and none is declared for
    // it (a checkout builds dist/ on bin/email's first run; scripts/ is not shipped).
    expect(pkg.scripts.preinstall ?? pkg.scripts.install ?? pkg.scripts.postinstall).toBeUndefined();
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

  it('installs into an empty prefix and runs `email --version` and `email sandbox --help` from there', () => {
    expect(email(['--version'])).toBe(`${pkg.version}\n`);
    expect(email(['sandbox', '--help'])).toMatch(/^Usage: email sandbox \[options\]/);
    expect(email(['completion', 'bash'])).toBe(readFileSync(join(root, 'completions', 'email.bash'), 'utf8'));
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
    expect(run(bareBin, ['completion', 'bash']).stdout).toBe(readFileSync(join(root, 'completions', 'email.bash'), 'utf8'));
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
