// The sandbox stands alone (ENGINEERING.md "Layout": src/sandbox/ imports
// nothing from the client). A bug in a shared helper would otherwise be
// mirrored by the service the tests talk to, and no test could catch it.
// These checks read the sources with the TypeScript parser, so they see every
// import however it is written.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SANDBOX = fileURLToPath(new URL('../../src/sandbox/', import.meta.url));
/** Packages the sandbox may load besides Node's own modules (bundled into the sandbox's chunk only). */
const SANDBOX_LIBRARIES = new Set(['htmlparser2', 'fflate']);
/** ENGINEERING.md: files stay readable; the bar is 450 lines. */
const MAX_LINES = 450;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

interface ImportEdge {
  specifier: string;
  /** False for `import type` / `export type` and imports whose every name is a type. */
  value: boolean;
}

function importsOf(file: string, source: ts.SourceFile): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (!clause.name && named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly)));
      edges.push({ specifier: node.moduleSpecifier.text, value: !typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      const typeOnly = node.isTypeOnly || (named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly));
      edges.push({ specifier: node.moduleSpecifier.text, value: !typeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      edges.push({ specifier: arg && ts.isStringLiteral(arg) ? arg.text : `<computed import in ${file}>`, value: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

const files = sourceFiles(SANDBOX).sort();
const parsed = new Map(files.map((file) => [file, ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true)]));
const rel = (file: string) => relative(SANDBOX, file);
const resolveRelative = (from: string, specifier: string) => resolve(dirname(from), specifier.replace(/\.js$/, '.ts'));

describe('the sandbox stands alone', () => {
  it('imports nothing from the rest of src/: only its own modules, node: built-ins and its own libraries', () => {
    const outside: string[] = [];
    for (const [file, source] of parsed) {
      for (const { specifier } of importsOf(file, source)) {
        if (specifier.startsWith('.')) {
          const target = resolveRelative(file, specifier);
          if (!target.startsWith(SANDBOX)) outside.push(`${rel(file)} -> ${relative(join(SANDBOX, '..', '..'), target)}`);
        } else if (!specifier.startsWith('node:') && !SANDBOX_LIBRARIES.has(specifier)) {
          outside.push(`${rel(file)} -> package ${specifier}`);
        }
      }
    }
    expect(outside).toEqual([]);
  });

  it('has no value-import cycle between its modules', () => {
    const graph = new Map<string, string[]>();
    for (const [file, source] of parsed) {
      graph.set(
        file,
        importsOf(file, source)
          .filter((e) => e.value && e.specifier.startsWith('.'))
          .map((e) => resolveRelative(file, e.specifier))
          .filter((target) => parsed.has(target)),
      );
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const walk = (file: string): void => {
      state.set(file, 'open');
      path.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].map(rel).join(' -> '));
        else if (!state.has(next)) walk(next);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) walk(file);
    expect(cycles).toEqual([]);
  });

  // Startup is a feature (ENGINEERING.md habit 10): the sandbox's libraries
  // load with `email sandbox` only, and there only when content is checked
  // (they would double the time the sandbox takes to load). dist/meta.json
  // is written by npm run build.
  it('bundles its libraries into the sandbox alone, run with the first content check, never when the CLI or the sandbox starts', () => {
    const meta = JSON.parse(readFileSync(new URL('../../dist/meta.json', import.meta.url), 'utf8')) as {
      inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const isLibrary = (input: string) => [...SANDBOX_LIBRARIES].some((lib) => input.includes(`node_modules/${lib}/`));
    const holders = Object.entries(meta.outputs).filter(([out, o]) => !out.endsWith('.map') && Object.keys(o.inputs).some(isLibrary));
    expect(holders.map(([out]) => out)).toEqual(['dist/sandbox.cjs']);
    expect(Object.keys(holders[0]![1].inputs).filter((input) => input.startsWith('src/') && !input.startsWith('src/sandbox/'))).toEqual([]);
    // What runs when the sandbox module loads: its entry's static imports. The libraries are a dynamic import away.
    const reached = new Set<string>();
    const visit = (input: string): void => {
      if (reached.has(input)) return;
      reached.add(input);
      for (const i of meta.inputs[input]?.imports ?? []) if (!i.external && i.kind !== 'dynamic-import') visit(i.path);
    };
    visit('src/sandbox/index.ts');
    expect(reached.size).toBeGreaterThan(10);
    expect([...reached].filter(isLibrary)).toEqual([]);
  });

  it(`keeps every source file at ${MAX_LINES} lines or fewer`, () => {
    const long = files
      .map((file) => ({ file: rel(file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  // State shared by every sandbox in a process couples tests that run side by
  // side and outlives stop(): state belongs to a running sandbox. Caught
  // here: top-level let/var, an empty Map/Set/WeakMap filled at run time, a
  // global or sticky regular expression (its lastIndex is state).
  it('keeps no mutable state at module level', () => {
    const found: string[] = [];
    for (const [file, source] of parsed) {
      for (const statement of source.statements) {
        if (!ts.isVariableStatement(statement)) continue;
        const list = statement.declarationList;
        const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
        for (const decl of list.declarations) {
          const name = decl.name.getText(source);
          const init = decl.initializer;
          if (!isConst) found.push(`${rel(file)}: let/var ${name}`);
          else if (init && ts.isNewExpression(init) && /^(Map|Set|WeakMap|WeakSet)$/.test(init.expression.getText(source)) && (init.arguments?.length ?? 0) === 0) {
            found.push(`${rel(file)}: ${name} = new ${init.expression.getText(source)}()`);
          } else if (init && ts.isRegularExpressionLiteral(init) && /\/[a-z]*[gy][a-z]*$/.test(init.text)) {
            found.push(`${rel(file)}: ${name} is a ${init.text.slice(init.text.lastIndexOf('/'))} regular expression`);
          }
        }
      }
    }
    expect(found).toEqual([]);
  });
});
