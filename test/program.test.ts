// `email help <command…>` is `email <command…> --help`, at any depth; an
// unknown command is exit 2 with a suggestion, as without `help` (issue 13.9).
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../src/commands/index.js';
import { buildProgram, entryNamed } from '../src/program.js';
import { runCli } from './helpers/cli.js';

const COMMANDS = await loadCommands();

describe('email help', () => {
  it('shows the help of a command two levels down, the same as --help', async () => {
    const viaHelp = await runCli(['help', 'subscribers', 'import']);
    const viaFlag = await runCli(['subscribers', 'import', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(/^Usage: email subscribers import \[options\] <file>/);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
  });

  it('shows a group and the program', async () => {
    expect((await runCli(['help', 'campaigns'])).stdout).toMatch(/^Usage: email campaigns \[options\] \[command\]/);
    expect((await runCli(['help'])).stdout).toMatch(/^Usage: email \[options\] \[command\]/);
  });

  it('refuses an unknown command with exit 2 and a suggestion', async () => {
    const r = await runCli(['help', 'campains']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: unknown command or help topic 'campains'\n(Did you mean campaigns?)\nHelp topics: environment, exit-codes, formatting, import\n");
    const deeper = await runCli(['help', 'campaigns', 'sumary']);
    expect(deeper.code).toBe(2);
    expect(deeper.stderr).toBe("error: unknown command 'campaigns sumary'\n(Did you mean summary?)\n");
  });

  it('an option named as the service names its query suggests the flag that sends it (--date is --since)', async () => {
    const r = await runCli(['campaigns', 'unsubscribes', '11111111-1111-4111-8111-111111111111', '--date', '2024-01-01']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: unknown option '--date'\n(Did you mean --since?)\n");
  });

  it('lists a command with its one-line summary in its group, the longer description only in its own help', async () => {
    const root = await runCli(['--help']);
    expect(root.stdout).toMatch(/^ {2}doctor \[options\] {2,}Check configuration, permissions, reachability, key\n {25}validity and clock skew\n {2}completion/m);
    expect((await runCli(['doctor', '--help'])).stdout).toMatch(/Exits 1 when a check fails/);
  });
});

// CLI.md's help paragraph: help reads as gh's does — a group's commands
// first, then its own options, then the global options (issue 20.5).
describe('help as gh reads', () => {
  const sections = (text: string) => [...text.matchAll(/^(Commands|Arguments|Options|Global Options):$/gm)].map((m) => m[1]!);
  const order = ['Commands', 'Arguments', 'Options', 'Global Options'];
  const walk = (cmd: Command, prefix: string[] = []): string[][] =>
    cmd.commands.flatMap((sub) => [[...prefix, sub.name()], ...walk(sub, [...prefix, sub.name()])]);

  it('`email subscribers --help` lists its commands right under the description', async () => {
    const lines = (await runCli(['subscribers', '--help'])).stdout.split('\n');
    expect(lines.indexOf('Commands:')).toBe(4);
    expect(lines.indexOf('Commands:')).toBeLessThan(lines.indexOf('Options:'));
    expect(lines.indexOf('Options:')).toBeLessThan(lines.indexOf('Global Options:'));
  });

  it('puts commands, arguments, own options and global options in that order in the root, every group and every leaf', async () => {
    const paths = [[], ...walk(buildProgram(COMMANDS))];
    for (const path of paths) {
      const text = (await runCli([...path, '--help'])).stdout;
      const found = sections(text);
      expect(found, path.join(' ') || 'root').toEqual(order.filter((s) => found.includes(s)));
      if (path.length && path[0] !== 'help') expect(found, path.join(' ')).toContain('Global Options');
    }
    expect(paths.length).toBeGreaterThan(40);
  });
});

describe('help lists what the tool has (issue 35)', () => {
  it("no group's help lists commander's own help command: `email help <group> <command>` is the way", async () => {
    for (const group of COMMANDS.filter((entry) => 'commands' in entry)) {
      const text = (await runCli([group.name, '--help'])).stdout;
      expect(text, group.name).not.toMatch(/^ {2}help \[command\]/m);
      expect(text, group.name).not.toContain('display help for command');
    }
  });

  it('a description wraps as one paragraph: no line of it is broken where the source broke it', async () => {
    const text = (await runCli(['config', 'set', '--help'], { columns: 80 })).stdout;
    const paragraph = text.split('\n\n')[2]!;
    expect(paragraph.replace(/\n/g, ' ')).toBe('A flag or an environment variable always wins over a stored default: --list given (or the id as the argument), -o or --json, EMAIL_PAGER or PAGER (and --no-pager). The service has no read of a list\'s name: give it with --name, and commands that use the default list say it.');
    // Each line but the last is filled: the next word would not have fitted.
    const lines = paragraph.split('\n');
    for (const [i, line] of lines.slice(0, -1).entries()) expect(line.length + 1 + lines[i + 1]!.split(' ')[0]!.length, line).toBeGreaterThan(80);
  });

  it("no command's description carries a line break inside a paragraph (help wraps it; a break there cuts a line short)", () => {
    for (const entry of COMMANDS) {
      for (const def of 'commands' in entry ? entry.commands : [entry]) {
        expect(def.description ?? '', `${entry.name} ${def.name}`).not.toMatch(/[^\n]\n(?!\n)/);
      }
    }
  });
});

describe('one list of values in help and in errors', () => {
  it('--encoding: the help names the encodings its refusal names (issue 13.10)', async () => {
    const help = (await runCli(['subscribers', 'import', '--help'])).stdout.replace(/\s+/g, ' ');
    const refused = await runCli(['subscribers', 'import', 'x.csv', '--list', '11111111-1111-4111-8111-111111111111', '--encoding', 'ebcdic', '--dry-run']);
    expect(refused.code).toBe(2);
    const listed = /must be one of ([\w, -]+) \(got/.exec(refused.stderr)![1]!;
    expect(listed.split(', ')).toHaveLength(5);
    expect(help).toContain(listed);
  });
});

// A run builds only the top-level entry its argv names (src/program.ts,
// for start-up): nothing it can reach may differ from the whole tree.
describe('the program built for one entry', () => {
  const paths = (cmd: Command, prefix: string[] = []): string[][] =>
    cmd.commands.flatMap((sub) => [[...prefix, sub.name()], ...paths(sub, [...prefix, sub.name()])]);
  const find = (root: Command, path: string[]) => path.reduce<Command | undefined>((cmd, word) => cmd?.commands.find((c) => c.name() === word), root);
  const full = buildProgram(COMMANDS);
  const entries = COMMANDS.map((entry) => entry.name);

  it("a run adds a command's options as commander dispatches to it, and prints every help as the whole program does", async () => {
    let compared = 0;
    for (const path of [...paths(full).filter((p) => p[0] !== 'help'), ['help']]) {
      let text = '';
      find(full, path)!.configureOutput({ getOutHelpWidth: () => 80, getOutHasColors: () => false, writeOut: (s) => void (text += s) }).outputHelp();
      expect((await runCli([...path, '--help'])).stdout, path.join(' ')).toBe(text);
      compared++;
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('holds, for every command under an entry, the same help, options and arguments as the whole program', async () => {
    let compared = 0;
    for (const path of paths(full).filter((p) => entries.includes(p[0]!))) {
      const focused = find(buildProgram(await loadCommands(path[0])), path);
      const whole = find(full, path)!;
      expect(focused, path.join(' ')).toBeDefined();
      expect(focused!.helpInformation(), path.join(' ')).toBe(whole.helpInformation());
      expect(focused!.options.map((o) => o.flags), path.join(' ')).toEqual(whole.options.map((o) => o.flags));
      compared++;
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('is chosen only when argv surely names an entry: after global options and their values, not after --', () => {
    expect(entryNamed(['campaigns', 'sent'])).toBe('campaigns');
    expect(entryNamed(['-o', 'json', '--profile', 'work', 'campaigns', 'sent'])).toBe('campaigns');
    expect(entryNamed(['--json', 'api', '/x'])).toBe('api');
    expect(entryNamed(['--timeout=5', 'campaigns'])).toBe('campaigns');
    expect(entryNamed(['--profile', 'campaigns', 'sent'])).toBe(undefined); // 'campaigns' is the profile's name; 'sent' is no entry
    expect(entryNamed(['help', 'campaigns'])).toBe(undefined);
    expect(entryNamed(['campains'])).toBe(undefined);
    expect(entryNamed(['--', 'campaigns'])).toBe(undefined);
    // The root's own flags ask for the root: `email -h campaigns` prints the program's help, listing every command.
    for (const flag of ['-h', '--help', '-v', '--version', '--bogus', '-qo']) expect(entryNamed([flag, 'campaigns']), flag).toBe(undefined);
    expect(entryNamed([])).toBe(undefined);
  });

  it('`email -h campaigns` is the root help, with every command (the root asked, not the group)', async () => {
    const r = await runCli(['-h', 'campaigns']);
    expect(r.stdout).toBe((await runCli(['--help'])).stdout);
  });

  it('parses global options given before the entry as the whole program does', async () => {
    const viaFocus = await runCli(['-o', 'json', 'campaigns', '--help']);
    const whole = await runCli(['help', 'campaigns']);
    expect(viaFocus.stdout).toBe(whole.stdout);
  });
});
