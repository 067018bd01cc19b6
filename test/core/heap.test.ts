// The heap flags (src/core/heap.ts) keep a long import's and walk's peak
// memory near its working size (bench/README.md). They are V8 flags set at
// run time, skipped on a line heap.ts does not know: a Node line or a V8
// that drops one would leave the heap untuned without a word, so these fail.
import { execFileSync } from 'node:child_process';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { boundedHeap } from '../../src/core/heap.js';

describe('the heap flags take on this Node line', () => {
  it("V8 knows every flag heap.ts sets", () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    for (const flag of ['--semi-space-growth-factor', '--expose-gc']) expect(options, flag).toContain(flag);
  });

  it('a streaming walk and an import get V8\'s own full collection, not the do-nothing stand-in of an unknown line', () => {
    const step = boundedHeap({ youngBytes: 1 << 20, workBetweenCollections: 10 });
    expect(String(runInNewContext('gc'))).toMatch(/^function gc\(\) \{ \[native code\] \}$/);
    expect(() => step(20)).not.toThrow();
  });
});
