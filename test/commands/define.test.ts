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

describe('the command contract', () => {
  it('no command prints: none calls the renderer, reaches stdout or stderr, or asks for machine mode itself', () => {
    const found = sources(join(root, 'src/commands')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${relative(root, file)}:${i + 1}` }))
        .filter(({ line }) => !/^\s*(\/\/|\*)/.test(line) && PRINTS.test(line))
        .map(({ line, at }) => `${at}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
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
