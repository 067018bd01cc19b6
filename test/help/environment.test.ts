// Every environment variable the source reads is in the one list that
// `email help environment` prints (src/core/environment.ts), and the list
// names nothing the source has stopped reading.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/core/environment.js';

const root = resolve(import.meta.dirname, '../..');
const LIST = 'src/core/environment.ts';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path);
    return /\.(ts|cts|mts|cjs|mjs)$/.test(e.name) || dir.endsWith('bin') ? [path] : [];
  });
}

const sources = [...files(join(root, 'src')), ...files(join(root, 'bin'))]
  .map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }))
  .filter((f) => f.path !== LIST && !f.path.startsWith('src/sandbox/'));

/** Names the source reads: `env.NAME`, `env['NAME']`, every EMAIL_* that is not one of our own identifiers, and Node's os functions that read the environment. */
function namesRead(): Map<string, string> {
  const declared = new Set(sources.flatMap((f) => [...f.text.matchAll(/\b(?:const|let|var|function|class)\s+(EMAIL_[A-Z0-9_]+)/g)].map((m) => m[1]!)));
  const found = new Map<string, string>();
  const add = (name: string, path: string) => found.has(name) || found.set(name, path);
  for (const { path, text } of sources) {
    for (const m of text.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)\b|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g)) add(m[1] ?? m[2]!, path);
    // `$EMAIL_KEY` in an example is the user's own shell variable, not one the tool reads.
    for (const m of text.matchAll(/(?<![$\w])EMAIL_[A-Z0-9_]+\b/g)) if (!declared.has(m[0])) add(m[0], path);
    if (/\btmpdir\(\)/.test(text)) add('TMPDIR', path);
    if (/\bhomedir\(\)/.test(text)) add('HOME', path);
  }
  return found;
}

describe('email help environment: one list of the variables the tool reads', () => {
  const listed = new Set(ENVIRONMENT.map((v) => v.name));

  it('lists every variable the source reads', () => {
    const read = namesRead();
    // The grep must see what it is meant to see, or it proves nothing.
    for (const name of ['EMAIL_API_KEY', 'EMAIL_PAGER', 'NO_COLOR', 'XDG_CONFIG_HOME', 'NODE_DISABLE_COMPILE_CACHE', 'TMPDIR']) expect([...read.keys()]).toContain(name);
    const missing = [...read].filter(([name]) => !listed.has(name)).map(([name, path]) => `${name} (read in ${path})`);
    expect(missing, `add these to ${LIST}`).toEqual([]);
  });

  it('names nothing the source no longer reads or mentions', () => {
    const all = sources.map((f) => f.text).join('\n');
    expect(ENVIRONMENT.filter((v) => !new RegExp(`\\b${v.name}\\b`).test(all)).map((v) => v.name)).toEqual([]);
    expect(listed.size).toBe(ENVIRONMENT.length);
  });

  it('says what each one does', () => {
    for (const v of ENVIRONMENT) expect(v.does.length, v.name).toBeGreaterThan(10);
  });
});
