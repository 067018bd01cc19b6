// Man pages, generated at build from the commander tree the program builds, so a page lists
// exactly what `--help` does. One page per command and group, as git and gh do, so `man
// email-subscribers-import` finds it and no page is a hundred screens long.
import type { Command, Help, Option } from 'commander';
import type { AnyCommand, Entry } from '../commands/define.js';
import { ENVIRONMENT } from '../core/environment.js';
import { RESOLVER_HEADING, RESOLVER_RULES } from '../core/resolver-rules.js';
import { EXIT_CODE_MEANINGS } from '../core/errors.js';
import { CLI_VERSION } from '../core/version.js';
import { HELP_TOPICS } from './topic-list.js';

export interface ManPage {
  file: string;
  path: string[];
  summary: string;
  text: string;
}

/** No line may be read as a roff request. */
export function roff(text: string): string {
  const escaped = text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/[^\x20-\x7e\n]/g, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
  return escaped.replace(/^([.'])/gm, '\\&$1');
}

function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .flatMap((p) => ['.PP', roff(p)]);
}

function items(entries: readonly (readonly [term: string, description: string])[]): string[] {
  return entries.flatMap(([term, description]) => ['.TP', `.B ${roff(term)}`, roff(description.replace(/\s+/g, ' ').trim() || '-')]);
}

function definitionAt(entries: readonly Entry[], path: string[]): AnyCommand | undefined {
  const [first, second] = path;
  const entry = entries.find((e) => e.name === first);
  if (!entry) return undefined;
  if ('commands' in entry) return second === undefined ? undefined : entry.commands.find((c) => c.name === second);
  return path.length === 1 ? entry : undefined;
}

function pageName(path: string[]): string {
  return ['email', ...path].join('-');
}

function header(path: string[], summary: string): string[] {
  const name = pageName(path);
  return [
    `.\\" Generated from the command definitions at build; do not edit.`,
    `.TH ${roff(name.toUpperCase())} 1 "" "email-cli ${roff(CLI_VERSION)}" "User Commands"`,
    '.SH NAME',
    `${roff(name)} \\- ${roff(summary.replace(/\s+/g, ' '))}`,
  ];
}

function optionItems(help: Help, options: readonly Option[]): string[] {
  return items(options.map((o) => [help.optionTerm(o), help.optionDescription(o)]));
}

function commandPage(cmd: Command, path: string[], all: ManPage[], entries: readonly Entry[]): ManPage {
  const help = cmd.createHelp();
  const def = definitionAt(entries, path);
  const summary = cmd.summary() || cmd.description().split('\n')[0]!;
  const lines = [...header(path, summary)];
  lines.push('.SH SYNOPSIS', `.B email ${roff(path.join(' '))}`, roff(cmd.usage()));
  lines.push('.SH DESCRIPTION', ...paragraphs(cmd.description()));
  const subcommands = help.visibleCommands(cmd).filter((s) => s.name() !== 'help');
  if (subcommands.length) lines.push('.SH COMMANDS', ...items(subcommands.map((s) => [help.subcommandTerm(s), help.subcommandDescription(s)])));
  const args = help.visibleArguments(cmd);
  if (args.length) lines.push('.SH ARGUMENTS', ...items(args.map((a) => [help.argumentTerm(a), help.argumentDescription(a)])));
  lines.push('.SH OPTIONS', ...optionItems(help, help.visibleOptions(cmd)));
  const globals = help.visibleGlobalOptions(cmd);
  if (globals.length) lines.push('.SH GLOBAL OPTIONS', '.PP', 'These work before or after any command; see', '.BR email (1).', ...optionItems(help, globals));
  if (def?.examples.length) lines.push('.SH EXAMPLES', '.PP', '.nf', ...def.examples.map((e) => roff(`$ ${e}`)), '.fi');
  const seeAlso = [pageName(path.slice(0, -1)), ...subcommands.map((s) => pageName([...path, s.name()]))];
  lines.push('.SH SEE ALSO', ...seeAlso.map((n, i) => `.BR ${roff(n)} (1)${i < seeAlso.length - 1 ? ',' : ''}`));
  const page = { file: `${pageName(path)}.1`, path, summary, text: `${lines.join('\n')}\n` };
  all.push(page);
  return page;
}

function rootPage(program: Command, pages: readonly ManPage[]): ManPage {
  const help = program.createHelp();
  const lines = [...header([], program.description())];
  lines.push('.SH SYNOPSIS', '.B email', roff('[options] <command> [subcommand] [arguments] [options]'));
  lines.push('.SH DESCRIPTION', ...paragraphs(program.description()), '.PP', roff('Every command has its own page, named by its words joined with hyphens: email-subscribers-import(1). `email <command> --help` prints the same.'));
  const leaves = pages.filter((p) => p.path.length > 0 && !pages.some((q) => q.path.length > p.path.length && p.path.every((w, i) => q.path[i] === w)));
  lines.push('.SH COMMANDS', ...items(leaves.map((p) => [`email ${p.path.join(' ')}`, p.summary])));
  lines.push('.SH GLOBAL OPTIONS', '.PP', 'Before or after any command.', ...optionItems(help, help.visibleOptions(program)));
  lines.push('.SH HELP TOPICS', '.PP', roff('Printed by `email help <topic>`.'), ...items(Object.entries(HELP_TOPICS)));
  lines.push('.SH CREDENTIALS', '.PP', roff(RESOLVER_HEADING), ...RESOLVER_RULES.flatMap((r) => ['.IP \\(bu 2', roff(r.says)]));
  lines.push('.SH ENVIRONMENT', ...items(ENVIRONMENT.map((v) => [v.name, v.precedence ? `${v.does} Precedence: ${v.precedence}` : v.does])));
  lines.push('.SH EXIT STATUS', ...items(EXIT_CODE_MEANINGS.map(([code, meaning]) => [String(code), meaning])));
  lines.push('.SH SEE ALSO', ...pages.map((p, i) => `.BR ${roff(pageName(p.path))} (1)${i < pages.length - 1 ? ',' : ''}`));
  return { file: 'email.1', path: [], summary: program.description(), text: `${lines.join('\n')}\n` };
}

/** The pages of the program built from `entries` (loadCommands()). */
export function manPages(program: Command, entries: readonly Entry[]): ManPage[] {
  const pages: ManPage[] = [];
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.createHelp().visibleCommands(cmd)) {
      // A group's own `help` is commander's, the same as --help: email-help(1) stands for all.
      if (path.length > 0 && sub.name() === 'help') continue;
      commandPage(sub, [...path, sub.name()], pages, entries);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(program, []);
  return [rootPage(program, pages), ...pages];
}
