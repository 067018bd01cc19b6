// src/output/fd-stdout.ts: stdout written to its descriptor, as process.stdout
// would write to a file or a pipe, and a reader gone away seen as the stream's error.
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEdges, isBrokenPipe } from '../../src/output/edges.js';
import { FdStdout } from '../../src/output/fd-stdout.js';

const neverOpened = () => {
  throw new Error('process.stdout was built');
};

describe('FdStdout', () => {
  it('writes strings and bytes to the descriptor, in order, without building a stream', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'email-fd-')), 'out');
    const fd = openSync(file, 'w');
    const out = new FdStdout(fd, neverOpened);
    expect(out.write('héllo ')).toBe(true);
    expect(out.write(new TextEncoder().encode('wörld\n'))).toBe(true);
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe('héllo wörld\n');
    expect(out.errored).toBe(null);
    expect(out.handedOver).toBeUndefined();
  });

  it("a failed write marks it errored; the edges close stdout and abort with a BrokenPipe", () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-fd-'));
    closeSync(openSync(join(dir, 'out'), 'w'));
    const fd = openSync(join(dir, 'out'), 'r'); // writing to a read-only descriptor fails (EBADF), as a gone reader's pipe does (EPIPE)
    const out = new FdStdout(fd, neverOpened);
    const edges = createEdges({ stdout: out, stderr: { write: () => true }, stdin: undefined as never, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false });
    edges.io.stdout.write('lost\n');
    closeSync(fd);
    expect(out.errored).toBeInstanceOf(Error);
    expect(edges.stdoutClosed).toBe(true);
    expect(isBrokenPipe(edges.signal.reason)).toBe(true);
    expect(edges.io.stdout.write('dropped\n')).toBe(true);
  });
});
