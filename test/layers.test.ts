// The house's floors (docs/architecture.md, "Layers"): a module imports only
// from its own floor or the floors under it, nothing imports in a circle
// (type-only imports count: they tie the files together for a reader as much
// as a value import does), and the sandbox stands alone. Imports are read by
// TypeScript's own pre-processor, which sees static, dynamic and type imports.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

/** The floors, top first; a module's floor is that of the first entry its path starts with. */
export const FLOORS: readonly (readonly string[])[] = [
  ['cli.ts'],
  ['program.ts', 'completion/', 'help/'],
  ['commands/', 'context.ts'],
  ['import/', 'webhooks/', 'output/', 'prompt.ts'],
  ['api/', 'validation/'],
  ['core/', 'schemas/', 'types/'],
];

/**
 * Imports that break the rules today, each to be removed by moving the code
 * that needs it (issue 26); the test fails when a new one appears and when
 * one listed here is gone, so this list only shrinks.
 */
const KNOWN_UPWARD = new Set<string>([]);
const KNOWN_CIRCLES = new Set<string>([]);

/** What a command (src/commands/) may import of output/, and that as `import type` only: its Result is all it knows of output. */
const RESULT_MODULE = 'src/output/result.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|cts|mts|cjs|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every file of src/ with the files of src/ it imports (paths from the repository's root). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(root, resolve(dirname(file), name)).replace(/\.js$/, '.ts'));
    graph.set(relative(root, file), [...new Set(targets)]);
  }
  return graph;
}

function floorOf(file: string): number {
  const inSrc = file.slice('src/'.length);
  const floor = FLOORS.findIndex((entries) => entries.some((e) => (e.endsWith('/') ? inSrc.startsWith(e) : inSrc === e)));
  if (floor < 0) throw new Error(`${file} stands on no floor: add it to FLOORS in test/layers.test.ts and to docs/architecture.md`);
  return floor;
}

/** Strongly connected components of more than one file (Tarjan), each as its sorted files. */
function circles(graph: Map<string, string[]>): string[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort().join(', '));
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found.sort();
}

describe('the layers of src/', () => {
  const graph = importGraph();
  const isSandbox = (f: string) => f.startsWith('src/sandbox/');

  it('every import stays on its floor or goes down, but for the known ones being removed', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      if (isSandbox(file)) continue;
      for (const target of targets) {
        if (isSandbox(target)) continue;
        if (floorOf(target) < floorOf(file)) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward.filter((edge) => !KNOWN_UPWARD.has(edge)), 'imports from a lower floor to a higher one').toEqual([]);
    expect([...KNOWN_UPWARD].filter((edge) => !upward.includes(edge)), 'gone: strike them from KNOWN_UPWARD').toEqual([]);
  });

  it('nothing imports in a circle, type-only imports included, but for the known ones being removed', () => {
    const found = circles(graph);
    expect(found.filter((c) => !KNOWN_CIRCLES.has(c)), 'new import circles').toEqual([]);
    expect([...KNOWN_CIRCLES].filter((c) => !found.includes(c)), 'gone: strike them from KNOWN_CIRCLES').toEqual([]);
  });

  it('the sandbox imports nothing from the rest, and only its command loads it', () => {
    const out = [...graph].filter(([f]) => isSandbox(f)).flatMap(([f, ts]) => ts.filter((t) => !isSandbox(t)).map((t) => `${f} -> ${t}`));
    expect(out).toEqual([]);
    const into = [...graph].filter(([f]) => !isSandbox(f)).flatMap(([f, ts]) => ts.filter(isSandbox).map((t) => `${f} -> ${t}`));
    expect(into.every((edge) => edge.startsWith('src/commands/sandbox/')), into.join('\n')).toBe(true);
  });

  it('a command imports nothing of output/ but the Result module, and that for its types only', () => {
    const breaches: string[] = [];
    for (const [file, targets] of graph) {
      if (!file.startsWith('src/commands/')) continue;
      const intoOutput = targets.filter((t) => t.startsWith('src/output/'));
      if (!intoOutput.length) continue;
      const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
      const typeOnly = new Set<string>();
      for (const statement of source.statements) {
        if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
        const spec = statement.moduleSpecifier;
        if (!spec || !ts.isStringLiteral(spec)) continue;
        const target = relative(root, resolve(dirname(join(root, file)), spec.text)).replace(/\.js$/, '.ts');
        const onlyTypes = ts.isImportDeclaration(statement) ? Boolean(statement.importClause?.isTypeOnly) : statement.isTypeOnly;
        if (onlyTypes) typeOnly.add(target);
      }
      for (const target of intoOutput) if (target !== RESULT_MODULE || !typeOnly.has(target)) breaches.push(`${file} -> ${target}`);
    }
    expect(breaches, 'commands import only `import type` of src/output/result.ts').toEqual([]);
  });

  it('reads imports of every kind: a check that sees none proves nothing', () => {
    const cli = graph.get('src/cli.ts') ?? [];
    expect(cli.length).toBeGreaterThan(3);
    // A floor breach written on purpose is seen: core importing commands.
    const probe = ts.preProcessFile("import type { X } from '../commands/define.js';\nconst m = await import('../output/render.js');", true, true);
    expect(probe.importedFiles.map((i) => i.fileName)).toEqual(['../commands/define.js', '../output/render.js']);
  });
});
