// The man pages the build writes (src/help/man.ts → dist/man/man1/): each
// renders without a warning from man or groff, lists the flags its command's
// --help lists, and is declared in package.json's "man" so that npm links it.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { manPages, roff } from '../../src/help/man.js';
import { loadCommands } from '../../src/commands/index.js';
import { buildProgram } from '../../src/program.js';

const ENTRIES = await loadCommands();
import { requireBuild, runCli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = join(root, 'dist', 'man', 'man1');
const built = () => readdirSync(dir).filter((f) => f.endsWith('.1')).sort();

beforeAll(() => requireBuild());

/** The flags of the option items in a help text or a page's source (`-o`, `--output`, …). */
function flags(terms: string[]): string[] {
  return terms.flatMap((t) => t.match(/(?<![\w-])--?[a-zA-Z][\w-]*/g) ?? []).sort();
}

describe('man pages', () => {
  it('one page for the program and for every group and command, as the generator makes them', () => {
    const pages = manPages(buildProgram(ENTRIES), ENTRIES);
    expect(built()).toEqual(pages.map((p) => p.file).sort());
    expect(built()).toContain('email.1');
    expect(built()).toContain('email-subscribers-import.1');
    expect(pages.length).toBeGreaterThan(40);
  });

  // man renders them all in one run (a run costs more than a page); a warning names the page's line, not its file.
  it('render with man and with groff without a warning', () => {
    const files = built().map((f) => join(dir, f));
    const man = spawnSync('man', ['--warnings', '-l', ...files], { env: { ...process.env, MANWIDTH: '80' }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(man.status).toBe(0);
    expect(man.stderr).toBe('');
    expect(man.stdout.match(/^NAME$/gm)).toHaveLength(files.length);
    for (const file of files) expect(spawnSync('groff', ['-man', '-ww', '-z', file], { encoding: 'utf8' }).stderr, file).toBe('');
  }, 120_000);

  it('list the same flags as --help, command by command', async () => {
    for (const page of manPages(buildProgram(ENTRIES), ENTRIES)) {
      const help = (await runCli([...page.path, '--help'])).stdout;
      const helpTerms = help.split('\n').filter((l) => /^ {2}-/.test(l)).map((l) => l.trim().split(/ {2,}/)[0]!);
      const pageTerms = page.text.split('\n').filter((l) => /^\.B \\-/.test(l)).map((l) => l.slice(3).replace(/\\-/g, '-'));
      expect(flags(pageTerms), page.file).toEqual(flags(helpTerms));
      expect(flags(helpTerms).length, page.file).toBeGreaterThan(1);
    }
  });

  it('are all declared in package.json "man", which npm links into share/man/man1', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { man: string[] };
    expect([...pkg.man].sort()).toEqual(built().map((f) => `dist/man/man1/${f}`));
  });

  it('escape what roff would read as a request or an escape', () => {
    expect(roff('.start\n\'quote\nback\\slash -x …')).toBe('\\&.start\n\\&\'quote\nback\\eslash \\-x \\[u2026]');
  });
});
