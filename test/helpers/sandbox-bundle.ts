// Test helper: bundles the sandbox (TypeScript) into one plain .mjs file, so a
// child `node` process can run it without a TypeScript loader.
import { build } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export async function bundleSandbox(): Promise<{ dir: string; modulePath: string; storePath: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'email-sandbox-bundle-'));
  await build({
    entryPoints: {
      sandbox: fileURLToPath(new URL('../../src/sandbox/index.ts', import.meta.url)),
      store: fileURLToPath(new URL('../../src/sandbox/store.ts', import.meta.url)),
    },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  return { dir, modulePath: join(dir, 'sandbox.mjs'), storePath: join(dir, 'store.mjs') };
}
