// The sandbox for a child `node` process: dist/sandbox.cjs, the bundle
// scripts/build.mjs makes for `email sandbox`. Tests, benchmarks
// (bench/*.bench.mjs) and scripts all run that one bundle, so what they
// measure or kill is what users run; `npm run build` first.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BUILT_SANDBOX = new URL('../../dist/sandbox.cjs', import.meta.url);

/** The built sandbox module: its path and the URL a child's `import` names. */
export function builtSandbox(): { modulePath: string; moduleUrl: string } {
  const modulePath = fileURLToPath(BUILT_SANDBOX);
  if (!existsSync(modulePath)) throw new Error('dist/sandbox.cjs is missing: run `npm run build` first');
  return { modulePath, moduleUrl: BUILT_SANDBOX.href };
}
