// Startup is a feature (issue 2's bar): `--help` and `--version` must load
// none of the heavy modules. Deterministic: the bundle's metafile tells which
// code is reachable through static imports from the entry point.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const HEAVY = ['undici', 'zod', 'conf', 'ora', 'csv-parse', 'cli-table3', 'chalk', 'ajv', 'fast-xml-parser', 'jq-wasm'];

interface Meta {
  outputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[]; inputs: Record<string, unknown> }>;
}

function staticClosure(meta: Meta, entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const i of meta.outputs[out]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(entry);
  return seen;
}

describe('startup guard', () => {
  const meta = JSON.parse(readFileSync(new URL('../dist/meta.json', import.meta.url), 'utf8')) as Meta;

  it('dist/cli.js statically reaches commander and our own code only', () => {
    const packages = new Set<string>();
    for (const out of staticClosure(meta, 'dist/cli.js')) {
      for (const input of Object.keys(meta.outputs[out]!.inputs)) {
        const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
        if (m) packages.add(m[1]!);
      }
    }
    for (const heavy of HEAVY) expect(packages, heavy).not.toContain(heavy);
    expect([...packages]).toEqual(['commander']);
  });

  it('the jq engine loads only with --jq: its chunk is reached by one dynamic import, from src/output/jq.ts alone', () => {
    const jqChunks = Object.keys(meta.outputs).filter((out) => Object.keys(meta.outputs[out]!.inputs).some((i) => i.includes('node_modules/jq-wasm/')));
    expect(jqChunks.length).toBeGreaterThan(0);
    const importers = Object.entries(meta.outputs).filter(([, o]) => o.imports.some((i) => jqChunks.includes(i.path)));
    for (const [out, o] of importers) {
      for (const i of o.imports.filter((x) => jqChunks.includes(x.path))) expect(i.kind, out).toBe('dynamic-import');
      expect(Object.keys(o.inputs), out).toContain('src/output/jq.ts');
    }
    // …and src/output/jq.ts itself is reached only when --jq is given (parse-input's dynamic import).
    const jqModule = Object.keys(meta.outputs).find((out) => 'src/output/jq.ts' in meta.outputs[out]!.inputs)!;
    for (const [out, o] of Object.entries(meta.outputs)) {
      for (const i of o.imports.filter((x) => x.path === jqModule)) expect(i.kind, out).toBe('dynamic-import');
    }
  });

  it("a read loads zod's validation only, not its 264 KB of locales (schemas import zod/mini's namespace themselves)", () => {
    const zodOutputs = Object.entries(meta.outputs).filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes('node_modules/zod/')));
    expect(zodOutputs.length).toBeGreaterThan(0);
    for (const [out, o] of zodOutputs) {
      expect(Object.keys(o.inputs).filter((i) => i.includes('zod/v4/locales/')), out).toEqual([]);
      expect((o as unknown as { bytes: number }).bytes, out).toBeLessThan(64 * 1024);
    }
  });

  it('bin/email answers a bare --version and --help without loading dist/cli.js', () => {
    const bin = readFileSync(new URL('../bin/email', import.meta.url), 'utf8');
    expect(bin).toMatch(/only === '--version'[\s\S]*dist\/version\.js[\s\S]*only === '--help'[\s\S]*dist\/help\.txt[\s\S]*dist\/cli\.js/);
    expect(readFileSync(new URL('../dist/version.js', import.meta.url), 'utf8')).toMatch(/^export const version = "/);
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
