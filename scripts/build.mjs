// Bundles src/ into dist/, in files that load fast (start-up is a feature,
// ENGINEERING.md habit 10; figures in bench/startup.bench.mjs):
//
//   dist/cli.cjs      the program: one CommonJS bundle, loaded by dist/launch.cjs
//                     with a V8 code cache (src/launch.ts says why and how).
//                     A module reached only through `await import()` stays a
//                     lazily run function inside it: it costs nothing until
//                     called, and with the cache it is not even parsed.
//   dist/launch.cjs   src/launch.ts, what bin/email requires
//   dist/sandbox.cjs  the sandbox, standalone (benchmarks and scripts import it;
//                     `email sandbox` requires it)
//   dist/jq.cjs       jq-wasm (1.3 MB, WebAssembly inline): required by --jq only
//   dist/vendor/*.cjs the libraries only some commands use (VENDORED below)
//   dist/**/*.<v8>-<arch>.cache
//                     each bundle's code cache, made after running a few commands here
//
// Why not ES modules split into chunks, as before: each module costs the ESM
// loader a resolve, a read and a compile (a read command loaded 24), and
// Node 20 offers no code cache for them. Measured by bench/startup.bench.mjs
// on 2026-11-23, both builds in one run, each run over `node -e 0`: a group's
// help 1.43× → 1.20×, `email api …` 2.05× → 1.52×, `--help` 1.16× → 1.06×.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { thirdPartyNotices } from './third-party-notices.mjs';

const root = new URL('..', import.meta.url);
const dist = fileURLToPath(new URL('dist/', root));
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const require = createRequire(import.meta.url);
rmSync(dist, { recursive: true, force: true });

// Libraries that only some commands use (saving a key, the import, webhooks,
// a spinner on a terminal, and undici, which help never needs) and that share
// nothing with the rest: in bundles of their own, with caches of their own,
// they are not read, compiled or deserialized by commands that do not use them.
// dist/cli.cjs is 334 KB instead of 980 KB; `email campaigns --help` took
// 62 vs 65 ms (0.96×, medians of 25 paired runs, 2026-11-23), a read the same.
// name → the entry of its bundle, and the import that our code reaches it by
const VENDORED = {
  conf: { entry: 'conf', imported: /^conf$/ },
  ora: { entry: 'ora', imported: /^ora$/ },
  'csv-parse': { entry: 'csv-parse', imported: /^csv-parse$/ },
  'fast-xml-parser': { entry: 'fast-xml-parser', imported: /^fast-xml-parser$/ },
  undici: { entry: './src/core/undici-parts.ts', imported: /^\.\/undici-parts\.js$/ },
};

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  // `await import()` becomes a require of the module inside the bundle (or of
  // a sibling bundle): dist/cli.cjs runs in a vm.Script, which has no ES module loader.
  supported: { 'dynamic-import': false },
  // EMAIL_BUILD_MINIFY=0 keeps names readable, e.g. in a --cpu-prof profile.
  minify: process.env.EMAIL_BUILD_MINIFY !== '0',
  logLevel: 'warning',
  metafile: true,
};

const program = await build({
  ...common,
  entryPoints: { cli: 'src/cli.ts' },
  sourcemap: 'linked',
  define: { __EMAIL_CLI_VERSION__: JSON.stringify(pkg.version) },
  plugins: [withoutUndiciHttp2(), commanderWithoutChildProcess(), siblingBundles()],
});
const vendors = await Promise.all(
  Object.entries(VENDORED).map(([name, { entry }]) =>
    build({ ...common, entryPoints: { [`vendor/${name}`]: entry.startsWith('./') ? entry : fileURLToPath(import.meta.resolve(entry)) }, plugins: [withoutUndiciHttp2()] }),
  ),
);
const sandbox = await build({ ...common, entryPoints: { sandbox: 'src/sandbox/index.ts' }, sourcemap: 'linked' });
const jq = await build({ ...common, entryPoints: { jq: require.resolve('jq-wasm/inline') } });
await build({ ...common, entryPoints: { launch: 'src/launch.ts' } });
// docs/reference.md's generator, for scripts/gen-completions.mjs only (not shipped).
await build({ ...common, entryPoints: { reference: 'src/completion/reference.ts' }, format: 'esm', outExtension: {}, minify: false, metafile: false });

/**
 * undici's HTTP/2 client requires node:http2 when it is loaded, which every
 * command that talks to the service then paid for, though the pool never
 * enables HTTP/2. A stub takes its place in the bundle (src/core/undici-h2-stub.cjs).
 */
function withoutUndiciHttp2() {
  return {
    name: 'without-undici-http2',
    setup(b) {
      b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
        /undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? { path: fileURLToPath(new URL('src/core/undici-h2-stub.cjs', root)) } : undefined,
      );
    },
  };
}

/**
 * commander requires node:child_process when it is loaded, for executable
 * subcommands, which email never declares: a stand-in takes its place
 * (src/core/commander-child-process.cjs, with the figure that pays for it).
 */
function commanderWithoutChildProcess() {
  return {
    name: 'commander-without-child-process',
    setup(b) {
      b.onResolve({ filter: /^node:child_process$/ }, (args) =>
        /commander[\\/]lib$/.test(args.resolveDir) ? { path: fileURLToPath(new URL('src/core/commander-child-process.cjs', root)) } : undefined,
      );
    },
  };
}

/** The sandbox, jq and the VENDORED libraries are bundles of their own, required from dist/cli.cjs when a command needs them. */
function siblingBundles() {
  return {
    name: 'sibling-bundles',
    setup(b) {
      // Through an ES module shim: imported straight from our code (an ES module
      // to esbuild, "type": "module"), the bundle's default export would be its
      // whole exports object, as Node gives a CommonJS module's.
      for (const [name, { imported }] of Object.entries(VENDORED)) b.onResolve({ filter: imported }, () => ({ path: name, namespace: 'vendor' }));
      b.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({
        contents: `export * from './vendor/${args.path}.cjs'; export { default } from './vendor/${args.path}.cjs';`,
        resolveDir: dist,
      }));
      b.onResolve({ filter: /^\.\/vendor\//, namespace: 'vendor' }, (args) => ({ path: args.path, external: true }));
      b.onResolve({ filter: /[\\/]sandbox[\\/]index\.js$/ }, (args) => (args.importer.includes('src/commands/') ? { path: './sandbox.cjs', external: true } : undefined));
      b.onResolve({ filter: /^jq-wasm\/inline$/ }, () => ({ path: './jq.cjs', external: true }));
    },
  };
}

// bin/email answers a bare --version and --help from these files without loading the program.
writeFileSync(join(dist, 'version.txt'), `${pkg.version}\n`);
const { BundleLoader, writeCodeCache } = require(join(dist, 'launch.cjs'));
const loader = new BundleLoader({ env: {}, userDir: null });
const cli = loader.load(join(dist, 'cli.cjs'));
loader.around = cli.withDefaultV8Flags; // as src/launch.ts's launch() does
{
  const { code, stdout } = await runInProcess(['--help'], {});
  if (code !== 0 || !stdout.includes('Usage: email')) throw new Error(`rendering the root help failed (exit ${code})`);
  writeFileSync(join(dist, 'help.txt'), stdout);
}
await warmCodeCache();
// A read set --liftoff-only (src/core/undici-lite.ts): V8 would refuse a cache made under it in a run that starts without.
cli.restoreV8Flags();
const metafile = mergeMetafiles([program.metafile, sandbox.metafile, jq.metafile, ...vendors.map((v) => v.metafile)]);
// The bundles the warm-up did not reach get a cache of their top-level code.
for (const out of Object.keys(metafile.outputs).filter((o) => o.endsWith('.cjs'))) loader.load(fileURLToPath(new URL(out, root)));
// Beside each bundle, as readable as the bundle itself.
for (const bundle of loader.loaded.values()) writeCodeCache(bundle.script, bundle.file, dirname(bundle.file), 0o644);

// The licence notices of every bundled library ship with the program (checked by test/e2e/packaging.test.ts).
writeFileSync(join(dist, 'THIRD_PARTY_NOTICES.md'), thirdPartyNotices(fileURLToPath(root), metafile));
// The startup guard tests read this: which modules each bundle holds, and how they import each other.
writeFileSync(join(dist, 'meta.json'), JSON.stringify(metafile));

async function runInProcess(argv, env) {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (s) => ((stdout += s), true) }, stderr: { write: (s) => ((stderr += s), true) }, stdin: process.stdin, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
  const code = await cli.run(argv, { io, env, cwd: process.cwd() });
  return { code, stdout, stderr };
}

/**
 * Runs what most runs of the program do — a group's help, reads of one page
 * in each output format, a raw `api` read — against a loopback server that
 * answers every request with an empty list, so the cache holds the code of
 * those paths compiled.
 */
async function warmCodeCache() {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('[]');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const configDir = mkdtempSync(join(tmpdir(), 'email-build-'));
  const env = { EMAIL_BASE_URL: `http://127.0.0.1:${server.address().port}`, EMAIL_API_KEY: 'build-key', EMAIL_CONFIG_DIR: configDir };
  try {
    for (const argv of [
      ['campaigns', '--help'],
      ['campaigns', 'sent', '--help'],
      ['campaigns', 'sent'],
      ['campaigns', 'sent', '--json'],
      ['campaigns', 'sent', '-o', 'csv'],
      ['api', '/email/clients/scheduled'],
    ]) {
      const { code, stderr } = await runInProcess(argv, env);
      if (code !== 0) throw new Error(`warming the code cache: email ${argv.join(' ')} exited ${code}: ${stderr}`);
    }
  } finally {
    server.close();
    rmSync(configDir, { recursive: true, force: true });
  }
}

function mergeMetafiles(metafiles) {
  return { inputs: Object.assign({}, ...metafiles.map((m) => m.inputs)), outputs: Object.assign({}, ...metafiles.map((m) => m.outputs)) };
}
