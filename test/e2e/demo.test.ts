// `npm run demo` (scripts/demo.mjs) end to end, as the README's quick start
// runs it: exit 0, the summary and the failures file shown; written to a file
// or a pipe it carries no colour codes, as every output of the tool (issue 13.19).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function demo(env: Record<string, string | undefined>) {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined && !/^(EMAIL_|FORCE_COLOR|NO_COLOR)/.test(k)) clean[k] = v;
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  return spawnSync(process.execPath, ['scripts/demo.mjs'], { cwd: root, env: clean, encoding: 'utf8', timeout: 120_000 });
}

describe('npm run demo', () => {
  it('imports the example file into the sandbox, shows the failures file, exits 0, and writes no colour codes into a pipe', () => {
    const r = demo({});
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('The failures file');
    expect(r.stdout).toContain('Line,Outcome,Code,Message');
    expect(r.stdout).not.toContain('\x1b');
    expect(r.stderr).not.toContain('\x1b');
    // A newcomer reads sentences: the sandbox's machine-mode lines stay out of the demo.
    expect(r.stdout + r.stderr).not.toMatch(/^\{"type":/m);
    // The tool cannot read a list's fields: it never tells a newcomer to create ones the list may have.
    expect(r.stderr).not.toMatch(/create the fields? first/);
    // What the import says it did not import agrees with the failures file the demo shows (issue 17.4).
    const listed = r.stdout
      .split('Line,Outcome,Code,Message')[1]!
      .split('\n')
      .filter((line) => /,\d+,(failed|rejected|duplicate|partial),/.test(line));
    const said = /error: ([\d,]+) of [\d,]+ rows not imported \([^)]*\): see \S+, which also lists ([\d,]+) duplicates \([^)]*\)(?: and ([\d,]+) partial)?/.exec(r.stderr);
    expect(said, r.stderr).not.toBeNull();
    const count = (text: string | undefined) => Number((text ?? '0').replace(/,/g, ''));
    expect(count(said![1]) + count(said![2]) + count(said![3])).toBe(listed.length);
    const outcomes = (name: string) => listed.filter((line) => new RegExp(`,\\d+,${name},`).test(line)).length;
    expect(r.stdout).toContain(`   ${listed.length} rows: ${outcomes('failed')} failed, ${outcomes('rejected')} rejected, ${outcomes('duplicate')} duplicates`);
    expect(r.stdout).toContain(`${outcomes('partial')} partial (imported without a value`);
  }, 120_000);

  it('honours FORCE_COLOR like the tool does', () => {
    const r = demo({ FORCE_COLOR: '1' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('\x1b[1m');
  }, 120_000);
});
