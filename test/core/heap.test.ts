// The heap tunings of long walks and imports (src/core/heap.ts). They set
// process-wide V8 flags, so they run in a child process of their own: the
// module, compiled from TypeScript alone (it imports only node: modules),
// and a script counting the full collections it causes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

/** The Node lines whose V8 flags heap.ts sets; on another it leaves the heap to V8 and forces no collection. */
const flagsKnown = /^(20|22|24|26)\./.test(process.versions.node);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'email-heap-'));
  const source = readFileSync(fileURLToPath(new URL('../../src/core/heap.ts', import.meta.url)), 'utf8');
  writeFileSync(join(dir, 'heap.mjs'), transformSync(source, { loader: 'ts', format: 'esm' }).code);
});

/** Runs `body` after importing the module as `heap`; `majors()` counts full collections so far. Returns what the script printed. */
function run(body: string): unknown {
  const script = `
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import * as heap from ${JSON.stringify(pathToFileURL(join(dir, 'heap.mjs')).href)};
let major = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++; }).observe({ type: 'gc' });
const settle = () => new Promise((r) => setTimeout(r, 50));
const majors = async () => { await settle(); return major; };
${body}
`;
  const path = join(dir, `child-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(path, script);
  const child = spawnSync(process.execPath, [path], { encoding: 'utf8' });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout);
}

describe('compactHeapForStreaming', () => {
  it('returns a function that runs a full collection each time it is called, and the same one again', () => {
    const out = run(`
const before = await majors();
const collect = heap.compactHeapForStreaming();
collect(); collect();
const after = await majors();
console.log(JSON.stringify({ collected: after - before, same: heap.compactHeapForStreaming() === collect }));
`);
    expect(out).toEqual({ collected: flagsKnown ? 2 : 0, same: true });
  });
});

describe('boundedHeapForImport', () => {
  it('runs a full collection after every rowsBetweenCollections rows, counting rows across batches', () => {
    const out = run(`
const done = heap.boundedHeapForImport({ semiSpaceBytes: 1, rowsBetweenCollections: 1000 });
const before = await majors();
done(400); done(400);
const mid = await majors();
done(400); done(999); done(1);
const after = await majors();
console.log(JSON.stringify({ before400s: mid - before, after: after - before }));
`);
    expect(out).toEqual({ before400s: 0, after: flagsKnown ? 2 : 0 });
  });
});
