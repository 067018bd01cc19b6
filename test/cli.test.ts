// Startup is a feature (ENGINEERING.md habit 10; issue 18's bars on Node 24:
// --help and --version within 1.1× `node -e 0`, a group's help within 1.25×,
// a read within 1.7×, measured by bench/startup.bench.mjs). What a run costs
// is what it loads, so this guard says exactly that, for the bare --help and
// --version, a group's help, completion and two reads: the files each run
// reads (bin/email and the bundles of dist/; Node's compile cache is read by
// Node itself, checked in test/e2e/compile-cache.test.ts) and the Node modules
// beyond a bare `node`. The bundles' contents come from the build's metafile
// (dist/meta.json).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, requireBuild } from './helpers/cli.js';
import { serve, type Served } from './helpers/scripted-server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const TRACER = fileURLToPath(new URL('./helpers/trace-startup.cjs', import.meta.url));
/**
 * Node modules no run below may load: each costs a millisecond or more, and
 * none is needed (a pipe for stdout brings net and stream). http2: undici's
 * HTTP/2 client has a stand-in; child_process (with net and dgram): commander's
 * has one (scripts/build.mjs), and these fail when a library upgrade loses them.
 */
const NEVER = ['child_process', 'http2', 'https', 'tls', 'crypto', 'zlib', 'worker_threads', 'readline', 'sqlite', 'dgram', 'vm'];
/** …and these only once a command talks to the service. */
const NOT_FOR_HELP = ['http', 'net', 'dns', 'v8', 'assert', 'diagnostics_channel', 'perf_hooks', 'os'];

interface Trace {
  read: string[];
  builtins: string[];
  /** Which of process.stdout and process.stderr the run built. */
  streams: string[];
}

let server: Served;
let baseUrl: string;
beforeAll(async () => {
  requireBuild();
  // Every request answered 200 with an empty JSON list: enough for a read to make its one request.
  server = await serve(() => ({ status: 200, body: [] }));
  baseUrl = server.url;
});
afterAll(() => server.close());

/** Runs bin/email with the tracer, stdout a file as in `email … > out`, or a pipe as in `email … | jq`. */
function trace(args: string[], extraEnv: Record<string, string> = {}, { pipe = false } = {}): Promise<Trace & { stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'email-trace-'));
  const out = join(dir, 'trace.json');
  const env = { PATH: process.env.PATH, HOME: dir, TRACE_OUT: out, EMAIL_CONFIG_DIR: dir, EMAIL_API_KEY: 'k-12345678', EMAIL_BASE_URL: baseUrl, ...extraEnv };
  const stdout = pipe ? 'pipe' : openSync(join(dir, 'stdout'), 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', TRACER, BIN, ...args], { env, stdio: ['ignore', stdout, 'pipe'] });
    child.stdout?.resume();
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (typeof stdout === 'number') closeSync(stdout);
      if (code !== 0) return reject(new Error(`email ${args.join(' ')} exited ${code}: ${stderr}`));
      const trace = JSON.parse(readFileSync(out, 'utf8')) as Trace;
      resolve({ read: trace.read.map((f) => relative(root, f)), builtins: trace.builtins, streams: trace.streams, stderr });
    });
  });
}

describe('startup guard: what each run loads', () => {
  it('a bare --help and --version read one file each beside bin/email, and load no Node module for it', async () => {
    for (const [flag, file] of [
      ['--help', 'dist/help.txt'],
      ['--version', 'dist/version.txt'],
    ] as const) {
      for (const pipe of [false, true]) {
        const { read, builtins } = await trace([flag], {}, { pipe });
        expect(read, flag).toEqual(['bin/email', file]);
        // With stdout a pipe too: written to its descriptor, no stream (net, stream) is made for it.
        for (const name of [...NEVER, ...NOT_FOR_HELP, 'module', 'stream']) expect(builtins, `${flag} (stdout a ${pipe ? 'pipe' : 'file'}) loads ${name}`).not.toContain(name);
      }
    }
  });

  it('a bare --help whose reader went away exits 0 and prints nothing (CLI.md "broken pipe")', () => {
    // The reader (true) is gone before bin/email writes: the write fails with EPIPE.
    const dir = mkdtempSync(join(tmpdir(), 'email-epipe-'));
    const got = spawnSync('sh', ['-c', `{ sleep 0.3; "$0" "$1" --help 2>"$2/err"; echo $? >"$2/rc"; } | true`, process.execPath, BIN, dir], { env: { PATH: process.env.PATH, HOME: dir } });
    expect(got.status).toBe(0);
    expect(readFileSync(join(dir, 'rc'), 'utf8').trim()).toBe('0');
    expect(readFileSync(join(dir, 'err'), 'utf8')).toBe('');
  });

  it("a group's help and a completion script read the program bundle and commander's, nothing else, and load no HTTP, crypto or compression module", async () => {
    for (const args of [
      ['campaigns', '--help'],
      ['campaigns', 'sent', '--help'],
      ['completion', 'bash'],
    ]) {
      for (const pipe of [false, true]) {
        const { read, builtins } = await trace(args, {}, { pipe });
        expect(read, args.join(' ')).toEqual(['bin/email', 'dist/cli.cjs', 'dist/vendor/commander.cjs']);
        // A command (not help) writing into a pipe hands stdout to Node's stream as it starts, a socket
        // (net), so that a signal can end a write nobody reads (src/output/fd-stdout.ts); a file never waits.
        const handedOver = pipe && args[0] === 'completion' ? ['net'] : [];
        for (const name of [...NEVER, ...NOT_FOR_HELP].filter((n) => !handedOver.includes(n))) {
          expect(builtins, `${args.join(' ')} (stdout a ${pipe ? 'pipe' : 'file'}) loads ${name}`).not.toContain(name);
        }
      }
    }
  });

  it('a read adds undici and the network modules, nothing else', async () => {
    for (const args of [
      ['campaigns', 'sent', '--json'],
      ['api', '/email/clients/scheduled'],
    ]) {
      const { read, builtins } = await trace(args);
      expect(read, args.join(' ')).toEqual(['bin/email', 'dist/cli.cjs', 'dist/vendor/commander.cjs', 'dist/vendor/undici.cjs']);
      // node:assert builds process.stderr when it loads: undici's bundle has a stand-in (src/core/undici-assert-stub.cjs).
      for (const name of [...NEVER, 'assert']) expect(builtins, `${args.join(' ')} loads ${name}`).not.toContain(name);
    }
  });

  it('an import reads its own bundle beside the program, and a help of it does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-trace-import-'));
    writeFileSync(join(dir, 'people.csv'), 'email,name\na@example.com,A\n');
    const { read } = await trace(['subscribers', 'import', join(dir, 'people.csv'), '--list', '11111111-1111-4111-8111-111111111111', '--consent', 'yes', '--dry-run']);
    expect(read).toContain('dist/run-import.cjs');
    expect((await trace(['subscribers', 'import', '--help'])).read).toEqual(['bin/email', 'dist/cli.cjs', 'dist/vendor/commander.cjs']);
  });

  it('a read whose key is in the config file loads no keychain module (src/core/keychain.ts), even with a session bus named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-trace-config-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ defaultProfile: 'default', profiles: { default: { baseUrl, apiKey: 'k-12345678', keyStore: 'file' } } }), { mode: 0o600 });
    const env = { EMAIL_API_KEY: '', EMAIL_BASE_URL: '', EMAIL_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' };
    for (const args of [['campaigns', 'sent', '--json'], ['completion', 'bash'], ['auth', '--help']]) {
      const { read } = await trace(args, env);
      expect(read.filter((f) => f.includes('@napi-rs')), args.join(' ')).toEqual([]);
    }
  });

  it('--jq alone starts a worker thread, which reads the jq engine: the run itself reads what a read does (no other run loads worker_threads)', async () => {
    const { read, builtins } = await trace(['campaigns', 'sent', '--json', '--jq', 'length']);
    expect(read).toEqual(['bin/email', 'dist/cli.cjs', 'dist/vendor/commander.cjs', 'dist/vendor/undici.cjs']);
    expect(builtins).toContain('worker_threads');
  });

  it("with stdout and stderr pipes, a group's help builds neither stream, and a read stdout alone (written asynchronously once a command starts, so a signal can end it)", async () => {
    for (const [args, built] of [
      [['campaigns', 'sent', '--json'], ['stdout']],
      [['api', '/email/clients/scheduled'], ['stdout']],
      [['campaigns', '--help', '--no-color'], []],
    ] as const) {
      const { streams } = await trace([...args], {}, { pipe: true });
      expect(streams, args.join(' ')).toEqual(built);
    }
  });

  it('a read sets no V8 flag (node:v8 is what would set one), and nothing reaches stderr', async () => {
    const { builtins, stderr } = await trace(['campaigns', 'sent', '--json']);
    expect(stderr).toBe('');
    expect(builtins).not.toContain('v8');
  });
});

/** The release just before `version` (x.y.z), so the refusal is checked at the edge `engines` names. */
function justBefore(version: string): string {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  if (patch > 0) return `${major}.${minor}.${patch - 1}`;
  return minor > 0 ? `${major}.${minor - 1}.99` : `${major - 1}.99.99`;
}

/** A node older than `engines` on this machine, if there is one: the first on PATH, else /usr/bin's or /usr/local/bin's. */
function olderNode(): { path: string; version: string } | undefined {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const needed = (/^>=(\d+\.\d+\.\d+)$/.exec(pkg.engines.node)![1] as string).split('.').map(Number);
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'].filter(Boolean);
  for (const dir of dirs) {
    const path = join(dir, 'node');
    if (!existsSync(path)) continue;
    const r = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 30_000 });
    const version = r.status === 0 ? r.stdout.trim() : '';
    const v = version.split('.').map(Number);
    if (/^\d+\.\d+\.\d+$/.test(version) && (v[0]! - needed[0]! || v[1]! - needed[1]! || v[2]! - needed[2]!) < 0) return { path, version };
  }
  return undefined;
}

describe('bin/email, before anything else', () => {
  const bin = readFileSync(BIN, 'utf8');

  it('names the version needed, in one line with exit 1, on a Node older than `engines`, and reads nothing of dist/', async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const needed = /^>=(\d+\.\d+\.\d+)$/.exec(pkg.engines.node)?.[1];
    for (const [version, refused] of [
      ['18.20.4', true],
      [justBefore(needed!), true],
      [needed!, false],
      ['24.0.0', false],
    ] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'email-old-node-'));
      const fake = join(dir, 'fake-version.cjs');
      writeFileSync(fake, `Object.defineProperty(process.versions, 'node', { value: '${version}' });`);
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['-r', fake, BIN, '--version'], { env: { PATH: process.env.PATH, HOME: dir } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
      if (refused) {
        expect(result, version).toEqual({ code: 1, stdout: '', stderr: `error: email needs Node.js ${needed} or later; this is Node.js ${version}\n` });
      } else {
        expect(result, version).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
      }
    }
  });

  // The machine's own node where it is older than `engines` (Node 20 on CI's
  // machine kind), run as a user would: through bin/email's `#!/usr/bin/env node`.
  const older = olderNode();
  if (!older) console.warn('no Node older than `engines` on PATH or in /usr/bin, /usr/local/bin: the real old Node is not run');
  it.runIf(older)('on a real older Node, found through its `#!/usr/bin/env node`, one line naming the version needed, exit 1, for any command', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const needed = /^>=(\d+\.\d+\.\d+)$/.exec(pkg.engines.node)![1];
    for (const args of [['--version'], ['campaigns', 'sent', '--json'], ['doctor']]) {
      const r = spawnSync(BIN, args, { encoding: 'utf8', env: { PATH: `${dirname(older!.path)}:/usr/bin:/bin`, HOME: tmpdir() } });
      expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }, args.join(' ')).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: email needs Node.js ${needed} or later; this is Node.js ${older!.version}\n`,
      });
    }
  });

  it('is written so that an old Node can read it: nothing newer than ES5 (esbuild lowers nothing)', () => {
    expect(transformSync(bin, { loader: 'js', target: 'es5' }).code).toBe(transformSync(bin, { loader: 'js', target: 'esnext' }).code);
  });
});

interface Meta {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
  outputs: Record<string, { inputs: Record<string, unknown>; bytes: number }>;
}

describe('startup guard: what each bundle holds', () => {
  const meta = JSON.parse(readFileSync(new URL('../dist/meta.json', import.meta.url), 'utf8')) as Meta;
  const packageOf = (input: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];

  it('dist/cli.cjs holds none of the libraries that have bundles of their own, nor the sandbox', () => {
    const inputs = Object.keys(meta.outputs['dist/cli.cjs']!.inputs);
    const packages = new Set(inputs.map(packageOf).filter(Boolean));
    for (const own of ['commander', 'undici', 'conf', 'ajv', 'ora', 'csv-parse', 'fast-xml-parser', 'jq-wasm', 'htmlparser2', 'fflate']) expect(packages, own).not.toContain(own);
    expect(inputs.filter((i) => i.startsWith('src/sandbox/'))).toEqual([]);
  });

  it("the import pipeline, listen's receiver, the webhook senders, the sandbox command and doctor's checks are bundles of their own, not in dist/cli.cjs, and no file of src/ that keeps state is in two bundles", () => {
    const inputs = (out: string) => Object.keys(meta.outputs[out]!.inputs);
    const program = inputs('dist/cli.cjs');
    for (const [out, own] of [
      ['dist/run-import.cjs', ['src/commands/subscribers/import-session.ts', 'src/import/importer.ts', 'src/import/journal.ts']],
      ['dist/run-webhooks.cjs', ['src/commands/webhooks/listen-session.ts', 'src/webhooks/receiver.ts', 'src/webhooks/send-deliveries.ts']],
      ['dist/run-sandbox.cjs', ['src/commands/sandbox/serve.ts']],
      ['dist/run-doctor.cjs', ['src/commands/doctor/checks.ts']],
    ] as const) {
      for (const input of own) {
        expect(inputs(out), out).toContain(input);
        expect(program, input).not.toContain(input);
      }
    }
    // One module of ours, one instance: the output edge and the interrupts stay single. Only modules that keep
    // no state (the value checks the import runs on every row) are bundled again where they are used.
    const stateless = /^src\/(validation\/|output\/sanitize\.ts$|import\/(vendor-columns|mapping)\.ts$)/;
    const seen = new Map<string, string>();
    for (const out of Object.keys(meta.outputs).filter((o) => o === 'dist/cli.cjs' || /^dist\/run-[\w-]+\.cjs$/.test(o))) {
      for (const input of inputs(out).filter((i) => i.startsWith('src/') && !stateless.test(i))) {
        expect(seen.get(input), `${input} in ${out}`).toBeUndefined();
        seen.set(input, out);
      }
    }
  });

  it("what runs when dist/cli.cjs loads (its entry's static imports) is our own code and commander's bundle; the rest runs when a command asks", () => {
    const reached = new Set<string>();
    const visit = (input: string) => {
      if (reached.has(input)) return;
      reached.add(input);
      for (const i of meta.inputs[input]?.imports ?? []) if (!i.external && (i.kind === 'import-statement' || i.kind === 'require-call')) visit(i.path);
    };
    visit('src/cli.ts');
    expect([...new Set([...reached].map(packageOf).filter(Boolean))]).toEqual([]);
    expect([...reached].filter((i) => i.startsWith('vendor:'))).toEqual(['vendor:commander']);
    // No command's definition: each top-level entry is loaded when argv names it (src/commands/index.ts).
    expect([...reached].filter((i) => i.startsWith('src/commands/')).sort()).toEqual(['src/commands/define.ts', 'src/commands/globals.ts', 'src/commands/index.ts']);
  });

  it("no bundle calls import(): a sibling bundle is required, so the ES module loader is never started (scripts/build.mjs's `supported`)", () => {
    const bundles = Object.keys(meta.outputs).filter((out) => out.endsWith('.cjs'));
    expect(bundles.length).toBeGreaterThan(5);
    for (const out of bundles) expect(readFileSync(join(root, out), 'utf8').match(/[^\w$.]import\(/g), out).toBe(null);
  });

  it.each([
    ['undici', 30],
    ['commander', 5],
  ])("%s's modules are parenthesized functions, which V8 compiles eagerly, so Node's compile cache holds them (scripts/build.mjs writeEagerModules)", (name, least) => {
    const bundle = readFileSync(join(root, `dist/vendor/${name}.cjs`), 'utf8');
    const wrapped = bundle.match(new RegExp(`"[^"]*node_modules/${name}/lib/[^"]+\\.js":\\(function\\(`, 'g')) ?? [];
    expect(wrapped.length).toBeGreaterThan(least);
  });

  it("zod's validation is bundled without its 264 KB of locales (schemas import zod/mini's namespace themselves)", () => {
    const zod = Object.entries(meta.outputs['dist/cli.cjs']!.inputs as Record<string, { bytesInOutput: number }>).filter(([i]) => i.includes('node_modules/zod/'));
    const bytes = (entries: typeof zod) => entries.reduce((sum, [, i]) => sum + i.bytesInOutput, 0);
    expect(bytes(zod)).toBeGreaterThan(0);
    expect(bytes(zod)).toBeLessThan(64 * 1024);
    // The locales' index module stays, its exports shaken out (80 bytes).
    expect(bytes(zod.filter(([i]) => i.includes('zod/v4/locales/')))).toBeLessThan(1024);
  });
});

describe('help fast path', () => {
  it('the prerendered root help is exactly what the program prints', async () => {
    const { runCli } = await import('./helpers/cli.js');
    const live = await runCli(['--help', '--no-color']);
    expect(live.code).toBe(0);
    expect(readFileSync(new URL('../dist/help.txt', import.meta.url), 'utf8')).toBe(live.stdout);
  });
});
