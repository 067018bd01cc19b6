// The command tree as completion scripts need it, read from the commander program itself so the
// scripts cannot drift from the commands.
import type { Argument, Command, Option } from 'commander';
import { COMPLETED_IDS, type CompletedId } from '../commands/define.js';
import { HELP_TOPICS } from '../help/topic-list.js';

/** `profile` and `ids` are asked of the program at TAB (`email __profiles`, `email __ids <of>`). */
export type ValueKind = { kind: 'choices'; values: string[] } | { kind: 'file' } | { kind: 'dir' } | { kind: 'profile' } | { kind: 'ids'; of: CompletedId } | { kind: 'free' };

export interface OptionSpec {
  short?: string;
  long?: string;
  description: string;
  value?: ValueKind;
}

export interface CommandSpec {
  path: string[];
  name: string;
  description: string;
  subcommands: CommandSpec[];
  options: OptionSpec[];
  /** The first argument's kind; files for a variadic file list. */
  positional?: ValueKind;
}

const HELP: OptionSpec = { short: '-h', long: '--help', description: 'show help' };

export function commandTree(program: Command): CommandSpec {
  const tree = walk(program, [], program.options.filter((o) => !o.hidden && o.long !== '--version').map(optionSpec));
  // `email help <command…>` completes command paths and topics.
  const help = tree.subcommands.find((c) => c.name === 'help');
  if (help) {
    const topics = Object.entries(HELP_TOPICS).map(([name, description]): CommandSpec => ({ path: ['help', name], name, description, subcommands: [], options: [] }));
    help.subcommands = [...tree.subcommands.filter((c) => c !== help).map((c) => helpPath(c, ['help'])), ...topics];
    help.positional = undefined;
  }
  return tree;
}

function helpPath(spec: CommandSpec, at: string[]): CommandSpec {
  const path = [...at, spec.name];
  return { path, name: spec.name, description: spec.description, subcommands: spec.subcommands.map((s) => helpPath(s, path)), options: [] };
}

/** `globals`: commander accepts the program's options after any subcommand, so leaves offer them. */
function walk(cmd: Command, path: string[], globals: OptionSpec[]): CommandSpec {
  const visible = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
  const own = cmd.options.filter((o) => !o.hidden).map(optionSpec);
  const options = path.length > 0 && visible.length === 0 ? [...own, ...globals] : own;
  if (!options.some((o) => o.long === '--help')) options.push(HELP);
  const first = cmd.registeredArguments[0];
  return {
    path,
    name: path.length ? path[path.length - 1]! : cmd.name(),
    description: firstLine(cmd.description()),
    subcommands: visible.map((c) => walk(c, [...path, c.name()], globals)),
    options,
    positional: first ? argumentKind(first) : undefined,
  };
}

function optionSpec(option: Option): OptionSpec {
  const spec: OptionSpec = { description: firstLine(option.description) };
  if (option.short) spec.short = option.short;
  if (option.long) spec.long = option.long;
  if (option.required || option.optional) spec.value = valueKind(option.argChoices, placeholder(option.flags), completeOf(option));
  return spec;
}

function argumentKind(argument: Argument): ValueKind {
  return valueKind(argument.argChoices, argument.name(), completeOf(argument));
}

/** program.ts puts it on the commander option or argument. */
function completeOf(item: Option | Argument): string | undefined {
  return (item as { complete?: string }).complete;
}

function placeholder(flags: string): string {
  return /<([^>]+)>|\[([^\]]+)\]/.exec(flags)?.slice(1).find(Boolean) ?? '';
}

/** Else files or directories when the value's name says so (`<file.csv>`, `<dir>`). */
function valueKind(choices: string[] | undefined, name: string, complete?: string): ValueKind {
  if (choices?.length) return { kind: 'choices', values: [...choices] };
  if (complete === 'profile' || complete === 'file' || complete === 'dir') return { kind: complete };
  if ((COMPLETED_IDS as readonly string[]).includes(complete ?? '')) return { kind: 'ids', of: complete as CompletedId };
  if (/^dir\b|directory/i.test(name)) return { kind: 'dir' };
  if (/file/i.test(name)) return { kind: 'file' };
  return { kind: 'free' };
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

export function* allCommands(spec: CommandSpec): Generator<CommandSpec> {
  yield spec;
  for (const sub of spec.subcommands) yield* allCommands(sub);
}

export function optionNames(option: OptionSpec): string[] {
  return [option.short, option.long].filter((n): n is string => !!n);
}
