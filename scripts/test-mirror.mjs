// Which modules of src/ have their tests at the same path under test/
// (docs/architecture.md "Tests": src/<path>.ts → test/<path>.test.ts).
// `node scripts/test-mirror.mjs` prints the counts; `-v` also lists the
// modules without logic and those with logic but no same-path test.
//
// A module has logic when, once its comments, strings, `import`/`export …
// from` lines and type and interface declarations are taken out, it still
// holds a function, an arrow function, a method, a class or a control
// statement: pure type, re-export and index files do not count, nor .d.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const walk = (dir) => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
const METHOD = /^\s*(async\s+)?\*?(?!(?:if|for|while|switch|catch|return)\b)[A-Za-z_$][\w$]*\s*\([^()]*\)\s*(:[^{=;]*)?\{/m;

function hasLogic(text) {
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/`(?:\\.|[^`\\])*`|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, '""')
    .replace(/^\s*(import|export)\b[^;]*\bfrom\b[^;]*;/gm, '')
    .replace(/^\s*(export\s+)?(declare\s+)?(type|interface)\b[\s\S]*?^(\}|[^\n]*;)\s*$/gm, '');
  return /\bfunction\b|=>|\bclass\b|\b(if|for|while|switch)\s*\(/.test(code) || METHOD.test(code);
}

const modules = walk(join(root, 'src'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => relative(root, f))
  .sort();
const withoutLogic = [];
const untested = [];
let tested = 0;
for (const path of modules) {
  if (!hasLogic(readFileSync(join(root, path), 'utf8'))) withoutLogic.push(path);
  else if (existsSync(join(root, 'test', path.slice('src/'.length).replace(/\.ts$/, '.test.ts')))) tested++;
  else untested.push(path);
}
const logic = modules.length - withoutLogic.length;
process.stdout.write(`${modules.length} modules in src/, ${logic} with logic, ${tested} of them with a same-path test\n`);
if (process.argv.includes('-v')) {
  process.stdout.write(`\nwithout logic:\n${withoutLogic.map((p) => `  ${p}\n`).join('')}`);
  process.stdout.write(`\nwith logic, no same-path test:\n${untested.map((p) => `  ${p}\n`).join('')}`);
}
