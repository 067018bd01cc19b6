// Bundles src/ into dist/ with code splitting: every `await import()` of a
// command module becomes its own chunk, so `email --help` loads commander and
// the command tree only (startup is a feature, see ENGINEERING.md habit 10).
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { thirdPartyNotices } from './third-party-notices.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

const result = await build({
  // sandbox: importable by benchmarks and scripts without the CLI around it.
  entryPoints: { cli: 'src/cli.ts', sandbox: 'src/sandbox/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // EMAIL_BUILD_MINIFY=0 keeps names readable, e.g. in a --cpu-prof profile.
  minify: process.env.EMAIL_BUILD_MINIFY !== '0',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __EMAIL_CLI_VERSION__: JSON.stringify(pkg.version) },
  // Some bundled CommonJS dependencies call require() on Node built-ins.
  banner: {
    js: "import { createRequire as __emailCreateRequire } from 'node:module'; const require = __emailCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: true,
  plugins: [withoutUndiciHttp2()],
});
// docs/reference.md's generator, for scripts/gen-completions.mjs only (not
// shipped). Built on its own: as a third entry of the split build it would
// share the command definitions with cli.js through a dozen small chunks,
// each one more module for every command to load.
await build({
  entryPoints: { reference: 'src/completion/reference.ts' },
  outdir: 'dist',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
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
        /undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? { path: new URL('../src/core/undici-h2-stub.cjs', import.meta.url).pathname } : undefined,
      );
    },
  };
}

// bin/email answers a bare --version from this file without loading the program.
writeFileSync(new URL('../dist/version.js', import.meta.url), `export const version = ${JSON.stringify(pkg.version)};\n`);
// The root help, rendered by the program itself, for bin/email's fast path.
{
  const { run } = await import(`../dist/cli.js?${Date.now()}`);
  let help = '';
  const sink = { write: (s) => ((help += s), true) };
  const code = await run(['--help'], { io: { stdout: sink, stderr: sink, stdin: process.stdin, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false }, env: {}, cwd: process.cwd() });
  if (code !== 0 || !help.includes('Usage: email')) throw new Error(`rendering the root help failed (exit ${code})`);
  writeFileSync(new URL('../dist/help.txt', import.meta.url), help);
}
// The licence notices of every bundled library ship with the program (checked by test/e2e/packaging.test.ts).
writeFileSync(new URL('../dist/THIRD_PARTY_NOTICES.md', import.meta.url), thirdPartyNotices(new URL('..', import.meta.url).pathname, result.metafile));
// The startup guard test reads this to prove --help loads no heavy module.
writeFileSync(new URL('../dist/meta.json', import.meta.url), JSON.stringify(result.metafile));
