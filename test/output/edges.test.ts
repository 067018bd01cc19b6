// The guarded ends of the process (src/output/edges.ts), with streams that
// fail the way a pipe does when its reader goes away.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { IO } from '../../src/output/edges.js';
import { createEdges, isBrokenPipe, STDERR_QUEUE_BYTES } from '../../src/output/edges.js';

/** A stream that takes writes until fail() is called, then errs like a pipe without a reader. */
class PipeLike extends EventEmitter {
  written = '';
  errored: Error | null = null;
  full = false;
  write(chunk: string | Uint8Array): boolean {
    if (this.errored) return false;
    this.written += String(chunk);
    return !this.full;
  }
  fail(): void {
    this.errored = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    this.emit('error', this.errored);
  }
}

function io(stdout: PipeLike, stderr: PipeLike): IO {
  return { stdout, stderr, stdin: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
}

describe('the edges of the process', () => {
  it('neutralises everything written to stderr but line breaks, and leaves stdout alone', () => {
    const out = new PipeLike();
    const err = new PipeLike();
    const edges = createEdges(io(out, err));
    edges.io.stderr.write('warning: \u001b]52;c;QQ==\u0007 \u009b31m \u202eabc\nnext line\n');
    edges.io.stdout.write('\u001b[1mbold\u001b[0m\n');
    expect(err.written).toBe('warning: \\x1b]52;c;QQ==\\x07 \\x9b31m \\u202eabc\nnext line\n');
    expect(out.written).toBe('\u001b[1mbold\u001b[0m\n');
  });

  it("a stdout that errs (EPIPE) is closed: the signal aborts with BrokenPipe, 'drain' waiters are released, later writes are dropped", async () => {
    const out = new PipeLike();
    const edges = createEdges(io(out, new PipeLike()));
    out.full = true;
    expect(edges.io.stdout.write('a\n')).toBe(false);
    const drained = new Promise<void>((resolve) => edges.io.stdout.once!('drain', resolve));
    out.fail();
    await drained;
    expect(edges.stdoutClosed).toBe(true);
    expect(edges.signal.aborted).toBe(true);
    expect(isBrokenPipe(edges.signal.reason)).toBe(true);
    expect(edges.io.stdout.write('b\n')).toBe(true);
    expect(out.written).toBe('a\n');
  });

  it('notices a write that failed at once, before the error event', () => {
    const out = new PipeLike();
    const edges = createEdges(io(out, new PipeLike()));
    out.errored = new Error('write EPIPE'); // set by the write itself, the event comes on the next tick
    edges.io.stdout.write('a\n');
    expect(edges.stdoutClosed).toBe(true);
    expect(edges.signal.aborted).toBe(true);
  });

  it('a stderr that errs is dropped without stopping the command', () => {
    const err = new PipeLike();
    const edges = createEdges(io(new PipeLike(), err));
    err.fail();
    expect(() => edges.io.stderr.write('more\n')).not.toThrow();
    expect(edges.signal.aborted).toBe(false);
    expect(edges.stdoutClosed).toBe(false);
  });

  it('Ctrl-C reaches the command with its own reason', () => {
    const interrupt = new AbortController();
    const edges = createEdges(io(new PipeLike(), new PipeLike()), interrupt.signal);
    interrupt.abort(new Error('interrupted'));
    expect(edges.signal.aborted).toBe(true);
    expect(isBrokenPipe(edges.signal.reason)).toBe(false);
  });
});

// main() gives stdin and stderr as getters: Node creates process.stdin and
// process.stderr when first read, loading net or tty (src/cli.ts), so a run
// that does not use them must not read them.
describe('stdin and stderr given as getters', () => {
  function lazyIo(out: PipeLike, err: PipeLike) {
    const opened: string[] = [];
    const value: IO = {
      stdout: out,
      get stderr() {
        opened.push('stderr');
        return err;
      },
      get stdin() {
        opened.push('stdin');
        return new PassThrough();
      },
      stdoutIsTTY: false,
      get stderrIsTTY() {
        opened.push('stderrIsTTY');
        return false;
      },
      get stdinIsTTY() {
        opened.push('stdinIsTTY');
        return false;
      },
    };
    return { value, opened };
  }

  it("are read by neither a group's help nor a command that prints its data, and stderr is read when first written to", async () => {
    const { run } = await import('../../src/cli.js');
    const out = new PipeLike();
    const err = new PipeLike();
    const { value, opened } = lazyIo(out, err);
    expect(await run(['campaigns', '--help'], { io: value, env: {}, cwd: process.cwd() })).toBe(0);
    expect(out.written).toMatch(/^Usage: email campaigns/);
    expect(await run(['completion', 'bash'], { io: value, env: {}, cwd: process.cwd() })).toBe(0);
    expect(opened).toEqual([]);
    expect(await run(['campaigns', 'nope'], { io: value, env: {}, cwd: process.cwd() })).toBe(2);
    expect(opened).toContain('stderr');
    expect(err.written).toMatch(/unknown command 'nope'/);
  });
});

describe('stderr nobody reads (issue 27.8)', () => {
  /** A pipe whose reader stopped reading: everything written stays queued. */
  class Unread extends PipeLike {
    get writableLength(): number {
      return this.written.length - this.taken;
    }
    taken = 0;
  }

  it('leaves lines out past the bound and says how many once there is room, as a warning object in machine mode', async () => {
    const err = new Unread();
    const edges = createEdges(io(new PipeLike(), err));
    edges.machineStderr();
    const line = `{"type":"notice","message":"${'x'.repeat(1000)}"}\n`;
    for (let i = 0; i < 5000; i++) edges.io.stderr.write(line);
    // Never much more than the bound, however much is written.
    expect(err.written.length).toBeLessThan(STDERR_QUEUE_BYTES + 2 * line.length);
    const kept = err.written.split('\n').length - 1;
    err.taken = err.written.length; // the reader reads again
    edges.io.stderr.write(line);
    const after = err.written.split('\n').filter(Boolean).slice(kept);
    expect(JSON.parse(after[0]!)).toEqual({ type: 'warning', message: `${5000 - kept} lines of messages left out: standard error was not being read`, dropped: 5000 - kept });
    expect(after[1]).toBe(line.trimEnd());
  });

  it('at the end of the command says what was left out and writes the last lines (the error) whatever is queued', async () => {
    const err = new Unread();
    const edges = createEdges(io(new PipeLike(), err));
    for (let i = 0; i < 3000; i++) edges.io.stderr.write(`${'y'.repeat(999)}\n`);
    await edges.finish();
    edges.io.stderr.write('error: the last line\n');
    const lines = err.written.trimEnd().split('\n');
    expect(lines.at(-2)).toMatch(/^warning: \d+ lines of messages left out: standard error was not being read$/);
    expect(lines.at(-1)).toBe('error: the last line');
  });
});
