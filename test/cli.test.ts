// Startup is a feature (ENGINEERING.md habit 10; issue 12's bars: a read
// within 1.8× `node -e 0`, a group's help within 1.25×, measured by
// bench/startup.bench.mjs). What a run costs is what it loads, so this guard
// says exactly that, for the bare --help and --version, a group's help and
// two reads: the files each run reads (bin/email, the bundles of dist/ and
// their code caches) and the Node modules beyond a bare `node`. The bundles'
// contents come from the build's metafile (dist/meta.json).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheFileName } from '../src/launch.js';
import { BIN, requireBuild } from './helpers/cli.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const TRACER = fileURLToPath(new URL('./helpers/trace-startup.cjs', import.meta.url));
/** The code cache the build wrote beside a bundle, e.g. dist/cli.cjs.<hash>.<v8>-<arch>.cache. */
const cache = (bundle: string) => join(dirname(bundle), cacheFileName(join(root, bundle)));
/** Node modules no run below may load: each costs a millisecond or more, and none is needed (a pipe for stdout brings net and stream). */
const NEVER = ['child_process', 'http2', 'https', 'tls', 'crypto', 'zlib', 'worker_threads', 'readline', 'sqlite', 'dgram'];
/** …and these only once a command talks to the service. */
const NOT_FOR_HELP = ['http', 'net', 'dns', 'v8', 'assert', 'diagnostics_channel', 'perf_hooks'];

interface Trace {
  read: string[];
  builtins: string[];
  /** The run's HOME: a cache the run wrote for the next one would be under .cache/ here. */
  home: string;
}

const server = createServer((_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end('[]');
});
let baseUrl: string;
beforeAll(async () => {
  requireBuild();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs bin/email with the tracer, stdout a file as in `email … > out` (a pipe would bring net and stream to every run alike). */
function trace(args: string[], stdin?: string): Promise<Trace> {
  const dir = mkdtempSync(join(tmpdir(), 'email-trace-'));
  const out = join(dir, 'trace.json');
  const env = { PATH: process.env.PATH, HOME: dir, TRACE_OUT: out, EMAIL_CONFIG_DIR: dir, EMAIL_API_KEY: 'k-12345678', EMAIL_BASE_URL: baseUrl };
  const stdout = openSync(join(dir, 'stdout'), 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', TRACER, BIN, ...args], { env, stdio: [stdin === undefined ? 'ignore' : 'pipe', stdout, 'pipe'] });
    child.stdin?.end(stdin);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      closeSync(stdout);
      if (code !== 0) return reject(new Error(`email ${args.join(' ')} exited ${code}: ${stderr}`));
      const trace = JSON.parse(readFileSync(out, 'utf8')) as Trace;
      resolve({ read: trace.read.map((f) => relative(root, f)), builtins: trace.builtins, home: dir });
    });
  });
}

describe('startup guard: what each run loads', () => {
  it('a bare --help and --version read one file each beside bin/email, and load no Node module for it', async () => {
    for (const [flag, file] of [
      ['--help', 'dist/help.txt'],
      ['--version', 'dist/version.txt'],
    ] as const) {
      const { read, builtins } = await trace([flag]);
      expect(read, flag).toEqual(['bin/email', file]);
      for (const name of [...NEVER, ...NOT_FOR_HELP, 'vm', 'module']) expect(builtins, `${flag} loads ${name}`).not.toContain(name);
    }
  });

  it("a group's help reads the program bundle and its code cache, nothing else", async () => {
    const { read, builtins } = await trace(['campaigns', '--help']);
    expect(read).toEqual(['bin/email', 'dist/launch.cjs', 'dist/cli.cjs', cache('dist/cli.cjs')]);
    for (const name of [...NEVER, ...NOT_FOR_HELP]) expect(builtins, name).not.toContain(name);
  });

  it('a read adds undici, with its cache, and the network modules', async () => {
    for (const args of [
      ['campaigns', 'sent', '--json'],
      ['api', '/email/clients/scheduled'],
    ]) {
      const { read, builtins } = await trace(args);
      expect(read, args.join(' ')).toEqual(['bin/email', 'dist/launch.cjs', 'dist/cli.cjs', cache('dist/cli.cjs'), 'dist/vendor/undici.cjs', cache('dist/vendor/undici.cjs')]);
      for (const name of NEVER) expect(builtins, `${args.join(' ')} loads ${name}`).not.toContain(name);
    }
  });

  it("a bundle loaded after a read takes the build's cache too: auth login checks the key, then loads conf; nothing is written for the next run", async () => {
    const { read, home } = await trace(['auth', 'login', '--base-url', baseUrl, '--with-key'], 'k-12345678\n');
    expect(read).toContain('dist/vendor/conf.cjs');
    expect(read).toContain(cache('dist/vendor/conf.cjs'));
    expect(existsSync(join(home, '.cache'))).toBe(false);
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
    for (const own of ['undici', 'conf', 'ajv', 'ora', 'csv-parse', 'fast-xml-parser', 'jq-wasm', 'htmlparser2', 'fflate']) expect(packages, own).not.toContain(own);
    expect(inputs.filter((i) => i.startsWith('src/sandbox/'))).toEqual([]);
  });

  it("what runs when dist/cli.cjs loads (its entry's static imports) is commander and our own code; the rest runs when a command asks", () => {
    const reached = new Set<string>();
    const visit = (input: string) => {
      if (reached.has(input)) return;
      reached.add(input);
      for (const i of meta.inputs[input]?.imports ?? []) if (!i.external && (i.kind === 'import-statement' || i.kind === 'require-call')) visit(i.path);
    };
    visit('src/cli.ts');
    expect([...new Set([...reached].map(packageOf).filter(Boolean))]).toEqual(['commander']);
  });

  it('no bundle the loader runs calls import(): a vm.Script has no ES module loader (src/launch.ts; the build turns them into requires)', () => {
    const bundles = Object.keys(meta.outputs).filter((out) => out.endsWith('.cjs'));
    expect(bundles.length).toBeGreaterThan(5);
    for (const out of bundles) expect(readFileSync(join(root, out), 'utf8').match(/[^\w$.]import\(/g), out).toBe(null);
  });

  it('the jq engine is reached only from src/output/jq.ts, which only --jq loads', () => {
    const importers = Object.entries(meta.inputs).filter(([, i]) => i.imports.some((x) => x.path === './jq.cjs'));
    expect(importers.map(([input]) => input)).toEqual(['src/output/jq.ts']);
    for (const [input, i] of Object.entries(meta.inputs)) {
      for (const x of i.imports.filter((x) => x.path === 'src/output/jq.ts')) expect(x.kind, input).toBe('dynamic-import');
    }
  });

  it("zod's validation is bundled without its 264 KB of locales (schemas import zod/mini's namespace themselves)", () => {
    const zod = Object.entries(meta.outputs['dist/cli.cjs']!.inputs as Record<string, { bytesInOutput: number }>).filter(([i]) => i.includes('node_modules/zod/'));
    const bytes = (entries: typeof zod) => entries.reduce((sum, [, i]) => sum + i.bytesInOutput, 0);
    expect(bytes(zod)).toBeGreaterThan(0);
    expect(bytes(zod)).toBeLessThan(64 * 1024);
    // The locales' index module stays, its exports shaken out (80 bytes).
    expect(bytes(zod.filter(([i]) => i.includes('zod/v4/locales/')))).toBeLessThan(1024);
  });

  it('bin/email answers a bare --version and --help from files, before anything else', () => {
    const bin = readFileSync(new URL('../bin/email', import.meta.url), 'utf8');
    expect(bin).toMatch(/only === '--version'[\s\S]*version\.txt[\s\S]*only === '--help'[\s\S]*help\.txt[\s\S]*launch\.cjs/);
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
