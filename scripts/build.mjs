// Bundles src/ into dist/ with code splitting: every `await import()` of a
// command module becomes its own chunk, so `email --help` loads commander and
// the command tree only (startup is a feature, see ENGINEERING.md habit 10).
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  minifySyntax: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: { __EMAIL_CLI_VERSION__: JSON.stringify(pkg.version) },
  // Some bundled CommonJS dependencies call require() on Node built-ins.
  banner: {
    js: "import { createRequire as __emailCreateRequire } from 'node:module'; const require = __emailCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
