// The command contract (src/commands/define.ts, ENGINEERING.md habit 19): a
// command's run returns one Result and the edge renders it; no command
// prints, streams or reaches for the renderer or the process's streams itself.
// Read from the sources, as test/layers.test.ts reads imports.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** What only the edge may do with a command's output: call the renderer, reach stdout or stderr, ask whether stderr is machine mode. */
const PRINTS = /\bctx\.out\.(render|print|stream|line)\b|\bctx\.io\.(stdout|stderr)\b|\bctx\.log\.machine\b/;

/**
 * What a command may not read at all: the edge's streams and terminal facts
 * (ctx.io) and the renderer (ctx.out). Its input comes as input: ctx.stdin,
 * ctx.interactive, and --limit among its parsed options.
 */
const READS_EDGE = /\bctx\.(io|out)\b|\{[^}]*\b(io|out)\b[^}]*\}\s*=\s*ctx\b/;

/** The lines of the command sources that match `pattern`, comments left out, as `file:line: text`. */
function offending(pattern: RegExp): string[] {
  return sources(join(root, 'src/commands')).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line, i) => ({ line, at: `${relative(root, file)}:${i + 1}` }))
      .filter(({ line }) => !/^\s*(\/\/|\*)/.test(line) && pattern.test(line))
      .map(({ line, at }) => `${at}: ${line.trim()}`),
  );
}

describe('the command contract', () => {
  it('no command prints: none calls the renderer, reaches stdout or stderr, or asks for machine mode itself', () => {
    expect(offending(PRINTS)).toEqual([]);
  });

  it('no command reads the output edge: neither ctx.io nor ctx.out, only its input (ctx.stdin, ctx.interactive, --limit)', () => {
    expect(offending(READS_EDGE)).toEqual([]);
  });

  it('sees a command that reads the output edge', () => {
    expect(READS_EDGE.test('  const limit = ctx.out.limit;')).toBe(true);
    expect(READS_EDGE.test('  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {')).toBe(true);
    expect(READS_EDGE.test('  await readText(ctx.io.stdin, { maxBytes });')).toBe(true);
    expect(READS_EDGE.test('  const { io, signal } = ctx;')).toBe(true);
    expect(READS_EDGE.test('  if (!ctx.interactive) throw refusal;')).toBe(false);
    expect(READS_EDGE.test('  await readText(ctx.stdin.stream, { maxBytes });')).toBe(false);
    expect(READS_EDGE.test('  const { outcome } = await ctx.api();')).toBe(false);
  });

  it('sees a command that prints: a check that finds nothing proves nothing', () => {
    expect(PRINTS.test('    await ctx.out.render({ data });')).toBe(true);
    expect(PRINTS.test("  ctx.io.stderr.write('Listening\\n');")).toBe(true);
    expect(PRINTS.test('  ctx.io.stdout.writeAsynchronously?.();')).toBe(true);
    expect(PRINTS.test('    ctx.io.stderr,')).toBe(true);
    expect(PRINTS.test('  const emit = ctx.log.machine ? a : b;')).toBe(true);
    expect(PRINTS.test('  const limit = ctx.out.limit;')).toBe(false);
    expect(PRINTS.test('  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {')).toBe(false);
  });
});
