// Bundles src/ into dist/, in files that load fast (start-up is a feature,
// ENGINEERING.md habit 10; figures in bench/startup.bench.mjs):
//
//   dist/cli.cjs      the program: one CommonJS bundle, required by bin/email
//                     once it has turned on Node's compile cache. A module
//                     reached only through `await import()` stays a lazily run
//                     function inside it, but is still read with it.
//   dist/run-*.cjs    the heavy commands' run modules (SPLIT below), required
//                     only when one of them runs; what they share with
//                     dist/cli.cjs they take from it (fromProgram)
//   dist/sandbox.cjs  the sandbox, standalone (benchmarks and scripts import it;
//                     `email sandbox` requires it)
//   dist/jq.cjs       --jq's worker thread, jq-wasm inside (1.3 MB): started by --jq only
//   dist/vendor/*.cjs the libraries only some commands use (VENDORED below)
//
// Why not ES modules split into chunks: each module costs the ES module
// loader a resolve, a read and a compile (a read command loaded 24), where
// one CommonJS bundle is one read and, with the compile cache, no compile
// (figures in bench/README.md).
import { build, transformSync } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { thirdPartyNotices } from './third-party-notices.mjs';

const root = new URL('..', import.meta.url);
const rootDir = fileURLToPath(root);
const dist = fileURLToPath(new URL('dist/', root));
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const require = createRequire(import.meta.url);
rmSync(dist, { recursive: true, force: true });

// Libraries that only some commands use (saving a key, the import, webhooks,
// a spinner on a terminal, and undici, which help never needs) and that share
// nothing with the rest: in bundles of their own, they are not read, compiled
// or deserialized from the compile cache by commands that do not use them.
// dist/cli.cjs is a third of what it would be (figures in bench/README.md).
// name → the entry of its bundle, and the import that our code reaches it by
const VENDORED = {
  conf: { entry: 'conf', imported: /^conf$/ },
  ora: { entry: 'ora', imported: /^ora$/ },
  // Every run's, but in a bundle of its own so that its modules are compiled eagerly (writeEagerModules).
  commander: { entry: 'commander', imported: /^commander$/ },
  'csv-parse': { entry: 'csv-parse', imported: /^csv-parse$/ },
  'fast-xml-parser': { entry: 'fast-xml-parser', imported: /^fast-xml-parser$/ },
  undici: { entry: './src/core/undici-parts.ts', imported: /^\.\/undici-parts\.js$/ },
};

// The vendored bundles written by writeEagerModules.
const EAGER = new Set(['commander', 'undici']);

// The run modules of the commands whose code a read, a help or a completion
// never needs (the import pipeline, the webhook receiver and senders, the
// sandbox's server and doctor's checks): bundles of their own, required when
// their command runs. What of src/ dist/cli.cjs holds too is taken from
// dist/cli.cjs, never bundled twice, so module state (the output edge, the
// interrupts) stays one; libraries are bundled again, tree-shaken.
// name → the modules, as their paths in src/.
const SPLIT = {
  import: ['src/commands/subscribers/import-session.ts'],
  webhooks: ['src/commands/webhooks/listen-session.ts', 'src/webhooks/post.ts', 'src/webhooks/send-deliveries.ts', 'src/webhooks/sent-requests.ts'],
  sandbox: ['src/commands/sandbox/serve.ts'],
  doctor: ['src/commands/doctor/checks.ts'],
};
// Modules that keep no state, bundled again into a split bundle that uses them instead of handed over:
// the import's per-row checks then call them directly, not through the program's module getters.
const STATELESS = /^src\/(validation\/|output\/sanitize\.ts$|import\/(vendor-columns|mapping)\.ts$)/;
// Each SPLIT module by its path (as the metafile names it), and a filter for the imports that may name one.
const splitModules = new Map(Object.entries(SPLIT).flatMap(([name, modules]) => modules.map((m, i) => [m, { name, index: i }])));
const splitNames = new RegExp(`[\\\\/](${[...new Set([...splitModules.keys()].map((m) => m.split('/').pop().replace(/\.ts$/, '')))].join('|')})\\.js$`);

const common = {
  absWorkingDir: rootDir,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  // The oldest line the tool runs on (package.json engines, .ci/run).
  target: 'node22',
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  // `await import()` of a sibling bundle (./vendor/undici.cjs) becomes a
  // require: import() would start Node's ES module loader for it, which a
  // CommonJS program otherwise never loads.
  supported: { 'dynamic-import': false },
  // EMAIL_BUILD_MINIFY=0 keeps names readable, e.g. in a --cpu-prof profile.
  minify: process.env.EMAIL_BUILD_MINIFY !== '0',
  logLevel: 'warning',
  metafile: true,
  // The keychain module is native code in per-platform packages (an optional
  // dependency): never bundled, required from node_modules by src/core/keychain.ts
  // when a profile's key is read or written there.
  external: ['@napi-rs/keyring'],
  // `import.meta` in a CommonJS bundle is the bundle's own (importMetaOfBundle).
  define: { 'import.meta': 'importMeta' },
  inject: ['email:import-meta'],
  plugins: [importMetaOfBundle()],
};

// Every warning fails the build (test/e2e/packaging.test.ts checks the pack's
// output too): one that scrolls past unread is how a bundle ships broken.
const warnings = [];
async function bundle(options) {
  const result = await build(options);
  warnings.push(...result.warnings);
  return result;
}

const withVersion = { ...common.define, __EMAIL_CLI_VERSION__: JSON.stringify(pkg.version) };
// dist/cli.cjs is built twice: first to learn which modules it holds, then,
// once the split bundles have said which of those they use, with the table
// that hands them over (the second build holds the same modules).
const buildProgram = (shared) =>
  build({
    ...common,
    entryPoints: { cli: 'email:program' },
    sourcemap: 'linked',
    define: withVersion,
    plugins: [...common.plugins, programEntry(shared), siblingBundles(), splitOff()],
    write: shared !== undefined,
  });
const held = new Set(Object.keys((await buildProgram(undefined)).metafile.inputs));
const buildSplits = (wanted, write = true) =>
  Promise.all(
    Object.entries(SPLIT).map(([name, modules]) =>
      bundle({
        ...common,
        entryPoints: { [`run-${name}`]: `email:split/${name}` },
        sourcemap: 'linked',
        define: withVersion,
        plugins: [...common.plugins, splitEntry(name, modules), siblingBundles(), fromProgram(held, wanted)],
        write,
      }),
    ),
  );
// A module of src/ that two split bundles use, and the program does not, is handed over by the program too:
// one instance (its code is in dist/cli.cjs, run only when a split bundle asks for it).
const uses = new Map();
for (const { metafile } of await buildSplits(new Set(), false)) {
  for (const input of Object.keys(metafile.inputs)) if (input.startsWith('src/') && !splitModules.has(input) && !STATELESS.test(input)) uses.set(input, (uses.get(input) ?? 0) + 1);
}
for (const [input, count] of uses) if (count > 1) held.add(input);
const wanted = new Set();
const splits = await buildSplits(wanted);
const program = await buildProgram([...wanted].sort());
warnings.push(...program.warnings);
checkSplit(program.metafile, splits);
const vendors = await Promise.all(
  Object.entries(VENDORED).map(async ([name, { entry }]) => {
    const built = await bundle({
      ...common,
      entryPoints: { [`vendor/${name}`]: entry.startsWith('./') ? entry : fileURLToPath(import.meta.resolve(entry)) },
      plugins: [...common.plugins, ...(name === 'undici' ? [withoutUndiciHttp2(), undiciWithoutNodeAssert()] : []), ...(name === 'commander' ? [commanderWithoutChildProcess()] : [])],
      // Licence comments go to <bundle>.LEGAL.txt beside it: one of undici's is beyond ASCII (see the check below).
      legalComments: 'external',
      ...(EAGER.has(name) ? { minify: false, write: false } : {}),
    });
    if (name === 'undici') checkUndiciStandIns(built.metafile);
    if (EAGER.has(name)) for (const out of built.outputFiles) writeEagerModules(out.path, out.text);
    return built;
  }),
);
const sandbox = await bundle({ ...common, entryPoints: { sandbox: 'src/sandbox/index.ts' }, sourcemap: 'linked' });
// --jq's worker thread with jq inside it (src/output/jq-worker.ts): the wasm
// bytes are part of the bundle, and function names are kept, since the worker
// finds jq-wasm's fd_write import by its name.
// jq-wasm's ES module asks for its own URL when it loads: the bundle's (importMeta).
const jq = await bundle({
  ...common,
  entryPoints: { jq: 'src/output/jq-worker.ts' },
  loader: { '.wasm': 'binary' },
  keepNames: true,
});
// docs/reference.md's generator, for scripts/gen-completions.mjs only (not shipped).
await bundle({ ...common, entryPoints: { reference: 'src/completion/reference.ts' }, format: 'esm', outExtension: {}, minify: false, metafile: false, define: {}, inject: [], plugins: [] });

/**
 * `import.meta` for code bundled into CommonJS, where esbuild would leave it
 * empty (with a warning) and where Node has none: src/ runs as ES modules
 * under the tests, and code there (or a library, jq-wasm) asks for its URL.
 * The url is the bundle file's, read only when asked for; a bundle that never
 * reads import.meta leaves this module out.
 */
function importMetaOfBundle() {
  return {
    name: 'import-meta-of-bundle',
    setup(b) {
      b.onResolve({ filter: /^email:import-meta$/ }, () => ({ path: 'import-meta', namespace: 'import-meta' }));
      b.onLoad({ filter: /.*/, namespace: 'import-meta' }, () => ({
        contents: "export const importMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };",
        loader: 'js',
      }));
    },
  };
}

/**
 * Writes a library's bundle with each CommonJS module it wraps (esbuild's
 * `__commonJS({ "path"(exports, module) {…} })`) turned into a parenthesized
 * function, which V8 compiles eagerly with the bundle's top level: Node's
 * compile cache holds only what was compiled then, so the module bodies every
 * run (commander) or every read (undici) runs are taken from the cache instead
 * of compiled on each run. The minifier keeps the parentheses.
 */
function writeEagerModules(file, code) {
  // Its folder may not be there yet: the bundles are built at once, and this one writes itself.
  mkdirSync(dirname(file), { recursive: true });
  if (!file.endsWith('.cjs')) return writeFileSync(file, code);
  let wrapped = 0;
  const eager = code.replace(/^(var [\w$]+ = __commonJS\(\{\n  "[^"\n]+")\(([^)\n]*)\) \{\n([\s\S]*?)^  \}\n\}\);$/gm, (_all, head, params, body) => {
    wrapped++;
    return `${head}: (function(${params}) {\n${body}  })\n});`;
  });
  // A change in esbuild's output would silently lose this: fail the build instead.
  if (wrapped === 0) throw new Error(`${file}: no CommonJS module wrapper found to compile eagerly (esbuild's output changed?)`);
  const { code: out, warnings: found } = transformSync(eager, { loader: 'js', minify: common.minify, logLevel: 'warning' });
  warnings.push(...found);
  writeFileSync(file, out);
}

/**
 * undici's HTTP/2 client requires node:http2 when it is loaded, which every
 * command that talks to the service then paid for (0.87-0.89× of a read's CPU
 * time with the stub, bench/README.md), though the pool never enables HTTP/2.
 * A stub takes its place in the bundle (src/core/undici-h2-stub.cjs).
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
 * undici requires node:assert, whose load builds process.stderr: a stand-in
 * takes its place in undici's bundle (src/core/undici-assert-stub.cjs says
 * why it pays).
 */
function undiciWithoutNodeAssert() {
  return {
    name: 'undici-without-node-assert',
    setup(b) {
      b.onResolve({ filter: /^node:assert$/ }, (args) =>
        /undici[\\/]lib([\\/]|$)/.test(args.resolveDir) ? { path: fileURLToPath(new URL('src/core/undici-assert-stub.cjs', root)) } : undefined,
      );
    },
  };
}

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

/**
 * The stand-ins of undici's bundle, or the build fails: an undici that moved
 * client-h2.js or stopped requiring node:assert by that name would otherwise
 * ship without them, and no one would know until a read got slower.
 */
function checkUndiciStandIns(metafile) {
  const inputs = Object.keys(metafile.inputs);
  for (const stub of ['src/core/undici-h2-stub.cjs', 'src/core/undici-assert-stub.cjs']) {
    if (!inputs.includes(stub)) throw new Error(`dist/vendor/undici.cjs: ${stub} is not in the bundle (undici's layout changed?)`);
  }
  const left = inputs.filter((i) => /undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/.test(i));
  if (left.length > 0) throw new Error(`dist/vendor/undici.cjs: ${left.join(', ')} is bundled, and loads node:http2`);
}

/** The sandbox and the VENDORED libraries are bundles of their own, required from dist/cli.cjs when a command needs them; jq's is a worker thread's. */
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
      // The worker's path, beside dist/cli.cjs wherever it is installed (src/output/jq-worker-file.ts).
      b.onResolve({ filter: /^\.\/jq-worker-file\.js$/ }, () => ({ path: 'jq-worker-file', namespace: 'jq-worker-file' }));
      b.onLoad({ filter: /.*/, namespace: 'jq-worker-file' }, () => ({
        contents: "import { join, relative } from 'node:path'; export const JQ_WORKER = join(__dirname, 'jq.cjs');",
        loader: 'js',
      }));
    },
  };
}

/** dist/cli.cjs's entry: src/cli.ts, and the table by which the split bundles take its modules (fromProgram). */
function programEntry(shared = []) {
  return {
    name: 'program-entry',
    setup(b) {
      b.onResolve({ filter: /^email:program$/ }, () => ({ path: 'program', namespace: 'program-entry' }));
      b.onLoad({ filter: /.*/, namespace: 'program-entry' }, () => ({
        contents: [
          `export * from ${JSON.stringify(join(rootDir, 'src/cli.ts'))};`,
          'export function __emailShared(id) {',
          '  switch (id) {',
          ...shared.map((id) => `    case ${JSON.stringify(id)}: return require(${JSON.stringify(join(rootDir, id))});`),
          '  }',
          "  throw new Error('dist/cli.cjs does not hold ' + id);",
          '}',
        ].join('\n'),
        resolveDir: rootDir,
        loader: 'js',
      }));
    },
  };
}


/** In dist/cli.cjs, a SPLIT module is a require of its bundle. */
function splitOff() {
  return {
    name: 'split-off',
    setup(b) {
      b.onResolve({ filter: splitNames }, async (args) => {
        if (args.pluginData?.inner) return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { inner: true } });
        const split = found.errors.length === 0 ? splitModules.get(relative(rootDir, found.path)) : undefined;
        return split && { path: `${split.name}#${split.index}`, namespace: 'split-off' };
      });
      b.onLoad({ filter: /.*/, namespace: 'split-off' }, (args) => {
        const [name, index] = args.path.split('#');
        return { contents: `module.exports = require('./run-${name}.cjs').m${index};`, resolveDir: dist, loader: 'js' };
      });
      b.onResolve({ filter: /^\.\/run-[\w-]+\.cjs$/, namespace: 'split-off' }, (args) => ({ path: args.path, external: true }));
    },
  };
}

/** A split bundle's entry: its modules' namespaces, m0, m1, … in SPLIT's order. */
function splitEntry(name, modules) {
  return {
    name: 'split-entry',
    setup(b) {
      b.onResolve({ filter: /^email:split\// }, () => ({ path: name, namespace: 'split-entry' }));
      b.onLoad({ filter: /.*/, namespace: 'split-entry' }, () => ({
        contents: modules.map((m, i) => `export * as m${i} from ${JSON.stringify(join(rootDir, m))};`).join('\n'),
        resolveDir: rootDir,
        loader: 'js',
      }));
    },
  };
}

/**
 * In a split bundle, a module that dist/cli.cjs holds is taken from it
 * (its __emailShared), the same instance the program uses; `wanted` collects
 * them, for the program's second build.
 */
function fromProgram(held, wanted) {
  return {
    name: 'from-program',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.inner || args.kind === 'entry-point' || args.namespace === 'from-program') return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { inner: true } });
        if (found.errors.length > 0 || found.external || found.namespace !== 'file') return undefined;
        const id = relative(rootDir, found.path);
        // Libraries are bundled again, tree-shaken: taken whole from the program, zod alone would add 400 KB to it.
        if (!id.startsWith('src/') || !held.has(id) || splitModules.has(id) || STATELESS.test(id)) return undefined;
        wanted.add(id);
        return { path: id, namespace: 'from-program' };
      });
      b.onLoad({ filter: /.*/, namespace: 'from-program' }, (args) => ({
        contents: `module.exports = require('./cli.cjs').__emailShared(${JSON.stringify(args.path)});`,
        resolveDir: dist,
        loader: 'js',
      }));
      b.onResolve({ filter: /^\.\/cli\.cjs$/, namespace: 'from-program' }, (args) => ({ path: args.path, external: true }));
    },
  };
}

/**
 * The split holds: dist/cli.cjs reaches a split bundle only by `await
 * import()` (a static import would load it with every command), and no file
 * of src/ but a STATELESS one is in two bundles (module state would be two).
 */
function checkSplit(programMeta, splitBuilds) {
  for (const [input, { imports }] of Object.entries(programMeta.inputs)) {
    for (const i of imports) if (i.path.startsWith('split-off:') && i.kind !== 'dynamic-import') throw new Error(`dist/cli.cjs: ${input} imports ${i.path} statically, which would load its split bundle with every command`);
  }
  const owner = new Map(Object.keys(programMeta.inputs).map((i) => [i, 'dist/cli.cjs']));
  for (const { metafile } of splitBuilds) {
    for (const [out, { inputs }] of Object.entries(metafile.outputs)) {
      for (const input of Object.keys(inputs).filter((i) => i.startsWith('src/') && !STATELESS.test(i))) {
        if (owner.has(input)) throw new Error(`${input} is bundled in both ${owner.get(input)} and ${out}: its state would be two`);
        owner.set(input, out);
      }
    }
  }
}

if (warnings.length > 0) {
  console.error(`build failed: esbuild gave ${warnings.length} warning(s), printed above`);
  process.exit(1);
}

// A bundle with one character beyond ASCII is held as a two-byte string: its
// source takes twice the memory and is re-encoded for the compile cache at every start.
// (An unminified build keeps the source's comments, and is not checked.)
for (const file of common.minify ? readdirSync(dist, { recursive: true }).filter((f) => f.endsWith('.cjs')) : []) {
  const at = readFileSync(join(dist, file), 'latin1').search(/[^\x00-\x7f]/);
  if (at >= 0) throw new Error(`dist/${file}: a character beyond ASCII at offset ${at}; escape it in the source (\\uXXXX)`);
}

// bin/email answers a bare --version and --help from these files without loading the program.
writeFileSync(join(dist, 'version.txt'), `${pkg.version}\n`);
const cli = require(join(dist, 'cli.cjs'));
{
  let stdout = '';
  const io = { stdout: { write: (s) => ((stdout += s), true) }, stderr: process.stderr, stdin: process.stdin, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
  const code = await cli.run(['--help'], { io, env: {}, cwd: process.cwd() });
  if (code !== 0 || !stdout.includes('Usage: email')) throw new Error(`rendering the root help failed (exit ${code})`);
  writeFileSync(join(dist, 'help.txt'), stdout);
}

// Man pages from the same commander tree (src/help/man.ts): dist/man/man1/, as
// package.json's directories.man names it; the generator itself is not shipped.
{
  // One bundle: the definitions the tree is built from are the ones the pages read.
  const generator = join(dist, 'man-pages.cjs');
  const contents = ['help/man', 'program', 'commands/index'].map((m) => `export * from './src/${m}.ts';`).join('\n');
  await bundle({ ...common, entryPoints: undefined, stdin: { contents, resolveDir: rootDir, loader: 'ts' }, outfile: generator, outdir: undefined, minify: false, metafile: false, define: withVersion });
  const { manPages, buildProgram, loadCommands } = require(generator);
  const entries = await loadCommands();
  mkdirSync(join(dist, 'man', 'man1'), { recursive: true });
  for (const page of manPages(buildProgram(entries), entries)) writeFileSync(join(dist, 'man', 'man1', page.file), page.text);
  rmSync(generator);
}
const metafile = mergeMetafiles([program.metafile, ...splits.map((s) => s.metafile), sandbox.metafile, jq.metafile, ...vendors.map((v) => v.metafile)]);

// The licence notices of every bundled library ship with the program (checked by test/e2e/packaging.test.ts).
writeFileSync(join(dist, 'THIRD_PARTY_NOTICES.md'), thirdPartyNotices(fileURLToPath(root), metafile));
// The startup guard tests read this: which modules each bundle holds, and how they import each other.
writeFileSync(join(dist, 'meta.json'), JSON.stringify(metafile));

function mergeMetafiles(metafiles) {
  // A split bundle's stand-ins for the program's modules are not modules of theirs.
  const own = (inputs) => Object.fromEntries(Object.entries(inputs).filter(([input]) => !input.startsWith('from-program:')));
  return { inputs: Object.assign({}, ...metafiles.map((m) => own(m.inputs))), outputs: Object.assign({}, ...metafiles.map((m) => m.outputs)) };
}
