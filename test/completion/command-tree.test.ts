// The command tree completion scripts are generated from, read from a
// commander program (src/completion/command-tree.ts).
import { Argument, Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { allCommands, commandTree, optionNames } from '../../src/completion/command-tree.js';

function program(): Command {
  const root = new Command('email').description('Email CLI\nmore text');
  root.addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json']));
  root.addOption(new Option('--profile <name>', 'profile').hideHelp(false));
  (root.options.at(-1) as unknown as { complete: string }).complete = 'profile';
  root.addOption(new Option('--secret', 'hidden switch').hideHelp());
  root.version('1.0.0');
  const group = root.command('subscribers').description('Subscribers');
  const imp = group.command('import').description('Import subscribers');
  imp.addArgument(new Argument('<file.csv>', 'the file'));
  imp.option('--save-to <dir>', 'where to save');
  imp.option('--dry-run', 'only check');
  imp.addOption(new Option('--type <t>', 'a type').choices(['A', 'B']));
  group.command('hidden-one', { hidden: true });
  root.command('completion').addArgument(new Argument('<shell>').choices(['bash', 'zsh']));
  return root;
}

describe('commandTree', () => {
  const tree = commandTree(program());
  const find = (...path: string[]) => [...allCommands(tree)].find((c) => c.path.join(' ') === path.join(' '))!;

  it('walks visible commands depth first, the program first, with first lines of descriptions', () => {
    expect([...allCommands(tree)].map((c) => c.path.join(' '))).toEqual(['', 'subscribers', 'subscribers import', 'completion']);
    expect(tree.name).toBe('email');
    expect(tree.description).toBe('Email CLI');
  });

  it('leaves out hidden options, offers --version on the program only, and adds --help where commander did not declare it', () => {
    const names = tree.options.flatMap(optionNames);
    expect(names).toEqual(expect.arrayContaining(['--output', '--version']));
    expect(names).not.toContain('--secret');
    expect(names.filter((n) => n === '--help')).toHaveLength(1);
    const leaf = find('subscribers', 'import').options.flatMap(optionNames);
    expect(leaf).not.toContain('--version');
    expect(leaf).not.toContain('--secret');
  });

  it('gives leaves the global options too, and groups only their own', () => {
    const leaf = find('subscribers', 'import').options.flatMap(optionNames);
    expect(leaf).toEqual(expect.arrayContaining(['--save-to', '--dry-run', '--type', '-o', '--output', '--profile', '--help']));
    expect(find('subscribers').options.flatMap(optionNames)).toEqual(['-h', '--help']);
  });

  it('says what each value is completed with: choices, a declared kind, files or directories by name, else free', () => {
    const option = (cmd: ReturnType<typeof find>, long: string) => cmd.options.find((o) => o.long === long)!;
    const leaf = find('subscribers', 'import');
    expect(option(tree, '--output').value).toEqual({ kind: 'choices', values: ['table', 'json'] });
    expect(option(tree, '--profile').value).toEqual({ kind: 'profile' });
    expect(option(leaf, '--save-to').value).toEqual({ kind: 'dir' });
    expect(option(leaf, '--type').value).toEqual({ kind: 'choices', values: ['A', 'B'] });
    expect(option(leaf, '--dry-run').value).toBeUndefined();
    expect(leaf.positional).toEqual({ kind: 'file' });
    expect(find('completion').positional).toEqual({ kind: 'choices', values: ['bash', 'zsh'] });
    expect(find('subscribers').positional).toBeUndefined();
  });
});

describe('optionNames', () => {
  it('gives the short and long names that exist', () => {
    expect(optionNames({ short: '-o', long: '--output', description: '' })).toEqual(['-o', '--output']);
    expect(optionNames({ long: '--all', description: '' })).toEqual(['--all']);
  });
});
