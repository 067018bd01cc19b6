// Builds the commander tree from the command definitions (src/commands/).
// Commander only collects what was typed: every value is checked by
// src/commands/parse-input.ts when the command runs, so a usage error has one
// shape whether it is a bad number, an unknown choice or a missing id. Only
// commander and the definitions load here; what a command needs to run is
// an `await import()` away inside its `run`, so help stays fast
// (ENGINEERING.md habit 10).
import { Argument, Command, Help, Option } from 'commander';
import { COMMANDS } from './commands/index.js';
import { RECORD_OPTIONS, sharedOptions, type AnyCommand, type ArgDecl, type GroupDefinition, type OptionDecl } from './commands/define.js';
import { GLOBAL_OPTIONS } from './commands/globals.js';
import { CLI_VERSION } from './core/version.js';

/** Makes the commander action of a definition. */
export type ActionFactory = (definition: AnyCommand) => (...actionArgs: unknown[]) => Promise<void>;

export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    the service or the network refused the operation (4xx other than auth, 5xx after retries, timeouts)
  2    usage or client-side validation error: nothing was sent
  3    partial success: some rows or items failed; the rest was done and is reported
  4    authentication or account problem: no key configured, 401, 403
  130  interrupted (Ctrl-C); any import journal is saved first
`;

const ROOT_EXAMPLES = [
  'email auth login --base-url https://api.example.com',
  'email subscribers import people.csv --list <id>',
  'email campaigns unsubscribes --campaign <id> --all --json | jq length',
  'email sandbox',
];

/** Help text block with gh-style examples. */
export function examplesHelp(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** The commander option for a declaration; values are left as typed (checked later), choices kept for help and completion. */
export function commanderOption(decl: OptionDecl): Option {
  const flags = `${decl.short ? `${decl.short}, ` : ''}${decl.flag}${decl.kind === 'switch' ? '' : ` ${decl.placeholder}`}`;
  const option = new Option(flags, describeOption(decl));
  if (decl.kind === 'list') option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  if (decl.kind === 'choice') option.argChoices = [...decl.choices];
  if (decl.kind === 'text' && decl.suggest) option.argChoices = [...decl.suggest];
  if (decl.hidden) option.hideHelp();
  return option;
}

function describeOption(decl: OptionDecl): string {
  let text = decl.description;
  if ('default' in decl && decl.default !== undefined) text += ` (default: ${decl.default})`;
  return text;
}

function commanderArgument(decl: ArgDecl): Argument {
  const name = `${decl.name}${decl.variadic ? '...' : ''}`;
  // An id is optional as an argument: it may come as its flag instead.
  const required = decl.required && decl.kind !== 'id';
  const argument = new Argument(required ? `<${name}>` : `[${name}]`, decl.kind === 'id' ? `${decl.description} (or ${decl.flag} <id>)` : decl.description);
  if (decl.choices) argument.argChoices = [...decl.choices];
  return argument;
}

/** Field names by command, for completion scripts. */
export type FieldNames = ReadonlyMap<AnyCommand, readonly string[]>;

function addCommand(parent: Command, def: AnyCommand, action: ActionFactory, fields?: FieldNames): Command {
  const cmd = parent.command(def.name, { hidden: def.hidden }).description(def.description ? `${def.summary}\n\n${def.description}` : def.summary);
  for (const decl of Object.values((def.args ?? {}) as Record<string, ArgDecl>)) {
    cmd.addArgument(commanderArgument(decl));
    if (decl.kind === 'id') cmd.addOption(new Option(`${decl.flag} <id>`, `${decl.description} (or as the first argument)`));
  }
  for (const decl of Object.values((def.options ?? {}) as Record<string, OptionDecl>)) cmd.addOption(commanderOption(decl));
  for (const decl of Object.values(sharedOptions(def))) {
    const option = commanderOption(decl);
    // Completion scripts offer the record's field names (they are loaded from its schema only to generate them).
    if (decl === RECORD_OPTIONS.fields && fields?.get(def)?.length) option.argChoices = [...fields.get(def)!];
    cmd.addOption(option);
  }
  if (def.examples.length) cmd.addHelpText('after', examplesHelp(def.examples));
  cmd.action(action(def));
  return cmd;
}

function isGroup(entry: AnyCommand | GroupDefinition): entry is GroupDefinition {
  return 'commands' in entry;
}

export function buildProgram(action: ActionFactory = () => async () => undefined, fields?: FieldNames): Command {
  const program = new Command('email')
    .description('Operate the email-marketing and transactional-email service from the terminal and CI.')
    .version(CLI_VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    // A command's help lists the global options too (they work after it), but not --version, which is the program's alone.
    .configureHelp({
      showGlobalOptions: true,
      visibleGlobalOptions(cmd) {
        return Help.prototype.visibleGlobalOptions.call(this, cmd).filter((o) => o.long !== '--version');
      },
    })
    .addHelpText('after', `${examplesHelp(ROOT_EXAMPLES)}${EXIT_CODES_HELP}`);
  for (const decl of Object.values(GLOBAL_OPTIONS)) program.addOption(commanderOption(decl));

  for (const entry of COMMANDS) {
    if (!isGroup(entry)) {
      addCommand(program, entry, action, fields);
      continue;
    }
    // A group called without a subcommand prints its help (commander does so
    // for a group without an action), like gh; an unknown subcommand is
    // named, with a suggestion.
    const group = program.command(entry.name).description(entry.summary);
    for (const def of entry.commands) addCommand(group, def, action, fields);
  }
  return program;
}
