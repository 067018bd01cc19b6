// `email help <topic>` (CLI.md "help"): each topic from the definitions the
// code uses, `email help` listing the topics, an unknown one exit 2 naming them.
import { beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS } from '../../src/commands/globals.js';
import { ENVIRONMENT } from '../../src/core/environment.js';
import { ExitCode, EXIT_CODE_MEANINGS } from '../../src/core/errors.js';
import { HELP_TOPICS } from '../../src/help/topic-list.js';
import { requireBuild, spawnCli } from '../helpers/cli.js';

beforeAll(() => requireBuild());

describe('email help <topic>', () => {
  it('environment lists every variable of the one list, with its precedence', async () => {
    const r = await spawnCli(['help', 'environment']);
    expect(r.code).toBe(0);
    for (const v of ENVIRONMENT) expect(r.stdout).toMatch(new RegExp(`^ {2}${v.name}$`, 'm'));
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('EMAIL_PAGER The pager for output to a terminal taller than the screen; EMAIL_PAGER=cat turns paging off. Precedence: --no-pager wins over it; it wins over PAGER');
  });

  it('exit-codes prints the same table as the root help, every code of ExitCode in it', async () => {
    const topic = await spawnCli(['help', 'exit-codes']);
    const root = await spawnCli(['help']);
    expect(topic.code).toBe(0);
    expect(EXIT_CODE_MEANINGS.map(([code]) => code).sort()).toEqual(Object.values(ExitCode).sort());
    for (const [code, meaning] of EXIT_CODE_MEANINGS) {
      expect(root.stdout).toContain(`  ${String(code).padEnd(5)}${meaning}\n`);
      expect(topic.stdout.replace(/\n {7}/g, ' ')).toContain(`  ${String(code).padEnd(5)}${meaning}\n`);
    }
  });

  it('formatting and import name their options as the commands declare them', async () => {
    const formatting = await spawnCli(['help', 'formatting']);
    expect(formatting.code).toBe(0);
    for (const flag of ['-o, --output <format>', '--json', '--fields <a,b,…>', '--jq <expression>', '--limit <n>']) expect(formatting.stdout).toContain(`  ${flag}\n`);
    expect(formatting.stdout).toContain(GLOBAL_OPTIONS.output.description);
    expect(formatting.stdout).toMatch(/Machine mode: under --json/);
    const imp = await spawnCli(['help', 'import']);
    expect(imp.code).toBe(0);
    for (const section of ['Columns', 'Encodings', 'Dates', 'Consent', 'Journals', 'Failures files']) expect(imp.stdout).toMatch(new RegExp(`^${section}$`, 'm'));
    expect(imp.stdout).toMatch(/windows-1252/);
    expect(imp.stdout.replace(/\s+/g, ' ')).toContain('Line, Outcome, Code, Message');
  });

  it('every topic fits 80 columns', async () => {
    for (const topic of Object.keys(HELP_TOPICS)) {
      const { stdout } = await spawnCli(['help', topic]);
      expect(stdout.split('\n').filter((l) => [...l].length > 80), topic).toEqual([]);
    }
  });

  it('`email help` and `email --help` list the topics', async () => {
    for (const argv of [['help'], ['--help']]) {
      const r = await spawnCli(argv);
      expect(r.stdout).toMatch(/^Help topics \(email help <topic>\):$/m);
      for (const [name, summary] of Object.entries(HELP_TOPICS)) expect(r.stdout).toMatch(new RegExp(`^ {2}${name} +${summary.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}$`, 'm'));
    }
  });

  it('an unknown topic is exit 2, naming the topics and the nearest one', async () => {
    const r = await spawnCli(['help', 'enviroment']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("error: unknown command or help topic 'enviroment'\n(Did you mean environment?)\nHelp topics: environment, exit-codes, formatting, import\n");
  });

  it('`email help <command…>` still shows the command, the same as --help', async () => {
    const viaHelp = await spawnCli(['help', 'subscribers', 'import']);
    expect(viaHelp.stdout).toBe((await spawnCli(['subscribers', 'import', '--help'])).stdout);
  });
});
