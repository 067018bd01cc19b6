// Builds the commander tree from the definitions (src/commands/). Commander only collects what
// was typed; parse-input.ts checks every value, so a usage error has one shape. What a command
// needs to run is an `await import()` away inside its `run`, so help stays fast.
import { Argument, Command, CommanderError, Help, Option } from 'commander';
import { completionCommand } from './completion/command.js';
import { COMMAND_NAMES, loadCommands } from './commands/index.js';
import { RECORD_OPTIONS, sharedOptions, type AnyCommand, type ArgDecl, type Entry, type GroupDefinition, type OptionDecl } from './commands/define.js';
import { GLOBAL_OPTIONS } from './commands/globals.js';
import { nearNames } from './core/edit-distance.js';
import { EXIT_CODE_MEANINGS } from './core/errors.js';
import { CLI_VERSION } from './core/version.js';
import { HELP_TOPICS, helpTopicsBlock, isHelpTopic } from './help/topic-list.js';

export type ActionFactory = (definition: AnyCommand) => (...actionArgs: unknown[]) => Promise<void>;

const ROOT_EXAMPLES = [
  'email auth login --base-url https://api.example.com',
  'email subscribers import people.csv --list <id>',
  'email campaigns unsubscribes --campaign <id> --all --json | jq length',
  'email sandbox',
];

function exitCodesHelp(): string {
  return `\nExit codes:\n${EXIT_CODE_MEANINGS.map(([code, meaning]) => `  ${String(code).padEnd(5)}${meaning}`).join('\n')}\n`;
}

function examplesHelp(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** gh's order (CLI.md's help paragraph): commander puts a group's commands after every option. */
function ghOrderedHelp(this: Help, cmd: Command, helper: Help): string {
  const termWidth = helper.padWidth(cmd, helper);
  const item = (term: string, description: string) => helper.formatItem(term, termWidth, description, helper);
  const output = [`${helper.styleTitle('Usage:')} ${helper.styleUsage(helper.commandUsage(cmd))}`, ''];
  const description = helper.commandDescription(cmd);
  if (description.length > 0) output.push(helper.boxWrap(helper.styleCommandDescription(description), helper.helpWidth ?? 80), '');
  const commands = helper.visibleCommands(cmd).map((sub) => item(helper.styleSubcommandTerm(helper.subcommandTerm(sub)), helper.styleSubcommandDescription(helper.subcommandDescription(sub))));
  output.push(...helper.formatItemList('Commands:', commands, helper));
  const args = helper.visibleArguments(cmd).map((a) => item(helper.styleArgumentTerm(helper.argumentTerm(a)), helper.styleArgumentDescription(helper.argumentDescription(a))));
  output.push(...helper.formatItemList('Arguments:', args, helper));
  const option = (o: Option) => item(helper.styleOptionTerm(helper.optionTerm(o)), helper.styleOptionDescription(helper.optionDescription(o)));
  output.push(...helper.formatItemList('Options:', helper.visibleOptions(cmd).map(option), helper));
  if (helper.showGlobalOptions) output.push(...helper.formatItemList('Global Options:', helper.visibleGlobalOptions(cmd).map(option), helper));
  return output.join('\n');
}

/** Values are left as typed (checked later); choices kept for help and completion. */
function commanderOption(decl: OptionDecl): Option {
  const flags = `${decl.short ? `${decl.short}, ` : ''}${decl.flag}${decl.kind === 'switch' ? '' : ` ${decl.placeholder}`}`;
  const option = new Option(flags, describeOption(decl));
  if (decl.kind === 'list') option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  if (decl.kind === 'choice') option.argChoices = [...decl.choices];
  if (decl.kind === 'text' && decl.suggest) option.argChoices = [...decl.suggest];
  if (decl.hidden) option.hideHelp();
  if ((decl.kind === 'text' || decl.kind === 'list') && decl.complete) Object.assign(option, { complete: decl.complete });
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
  if (decl.complete) Object.assign(argument, { complete: decl.complete });
  return argument;
}

export type FieldNames = ReadonlyMap<AnyCommand, readonly string[]>;

/** A command's options and examples, added when commander dispatches to it: a run parses one command. */
const pending = new WeakMap<Command, { hasOptions: boolean; add: () => void }>();

/** The command with its options (a no-op once they are there). */
function complete(cmd: Command): Command {
  pending.get(cmd)?.add();
  pending.delete(cmd);
  return cmd;
}

function addCommand(parent: Command, def: AnyCommand, action: ActionFactory, fields?: FieldNames, lazy = false): Command {
  const cmd = parent
    .command(def.name, { hidden: def.hidden })
    .summary(def.summary)
    .description(def.description ? `${def.summary}\n\n${def.description}` : def.summary);
  const args = Object.values((def.args ?? {}) as Record<string, ArgDecl>);
  for (const decl of args) cmd.addArgument(commanderArgument(decl));
  cmd.action(action(def));
  const options = Object.values((def.options ?? {}) as Record<string, OptionDecl>);
  const shared = Object.values(sharedOptions(def));
  const add = () => addOptions(cmd, def, args, options, shared, fields);
  if (lazy) pending.set(cmd, { hasOptions: options.length + shared.length > 0 || args.some((a) => a.kind === 'id'), add });
  else add();
  return cmd;
}

function addOptions(cmd: Command, def: AnyCommand, args: ArgDecl[], options: OptionDecl[], shared: OptionDecl[], fields?: FieldNames): void {
  for (const decl of args.filter((a) => a.kind === 'id')) {
    const option = new Option(`${decl.flag} <id>`, `${decl.description} (or as the first argument)`);
    if (decl.complete) Object.assign(option, { complete: decl.complete });
    cmd.addOption(option);
  }
  for (const decl of options) cmd.addOption(commanderOption(decl));
  // An option typed by the service's own name for it (--date) suggests the flag that sends it (--since).
  const renamed = new Map(options.filter((o) => o.serviceName).map((o) => [`--${o.serviceName}`, o.flag]));
  if (renamed.size) {
    // commander's own refusal (typed here: it is not in its declarations) for every other flag.
    const refusing = cmd as unknown as { unknownOption(flag: string): never };
    const unknownOption = refusing.unknownOption.bind(cmd);
    refusing.unknownOption = (flag: string) => {
      if (!renamed.has(flag)) return unknownOption(flag);
      return cmd.error(`error: unknown option '${flag}'\n(Did you mean ${renamed.get(flag)}?)`, { exitCode: 2, code: 'commander.unknownOption' });
    };
  }
  for (const decl of shared) {
    const option = commanderOption(decl);
    // Completion scripts offer the record's field names (they are loaded from its schema only to generate them).
    if (decl === RECORD_OPTIONS.fields && fields?.get(def)?.length) option.argChoices = [...fields.get(def)!];
    cmd.addOption(option);
  }
  // The Usage line shows the flags a run needs, as gh's does (commander shows only [options]).
  const needed = options.filter((d) => (d.kind === 'text' || d.kind === 'choice') && d.required && d.default === undefined);
  if (needed.length) cmd.usage(`${cmd.usage()} ${needed.map((d) => `${d.flag} ${'placeholder' in d ? d.placeholder : ''}`).join(' ')}`);
  if (def.examples.length) cmd.addHelpText('after', examplesHelp(def.examples));
}

function isGroup(entry: Entry): entry is GroupDefinition {
  return 'commands' in entry;
}

/**
 * The top-level entry argv names, when certain: the first word after nothing but global
 * options. Anything else (`-h`, `--`, an unknown option or word) builds the whole program.
 */
export function entryNamed(argv: readonly string[]): string | undefined {
  const switches = new Set<string>();
  const valued = new Set<string>();
  for (const decl of Object.values(GLOBAL_OPTIONS) as OptionDecl[]) {
    const flags = decl.short ? [decl.flag, decl.short] : [decl.flag];
    for (const flag of flags) (decl.kind === 'switch' ? switches : valued).add(flag);
  }
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (switches.has(word) || valued.has(word.split('=')[0]!)) {
      if (valued.has(word)) i++;
      continue;
    }
    if (word.startsWith('-')) return undefined;
    return COMMAND_NAMES.includes(word) ? word : undefined;
  }
  return undefined;
}

/**
 * The tree of the entries given (loadCommands(): all, or the one argv names, plus `help` and
 * `completion`). `lazy`: a command's options are added as it is dispatched, and a group's help
 * lists them without them. test/program.test.ts checks that help and options are the same every way.
 */
export function buildProgram(entries: readonly Entry[], action: ActionFactory = () => async () => undefined, fields?: FieldNames, lazy = false): Command {
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
      subcommandTerm(cmd) {
        const term = Help.prototype.subcommandTerm.call(this, cmd);
        return pending.get(cmd)?.hasOptions ? term.replace(cmd.name(), `${cmd.name()} [options]`) : term;
      },
      formatHelp: ghOrderedHelp,
    })
    .hook('preSubcommand', (_, sub) => void complete(sub))
    // Written when the root's help is: a command's run never needs it.
    .addHelpText('after', () => `${examplesHelp(ROOT_EXAMPLES)}${exitCodesHelp()}${helpTopicsBlock()}`);
  for (const decl of Object.values(GLOBAL_OPTIONS)) program.addOption(commanderOption(decl));

  for (const entry of entries) {
    if (!isGroup(entry)) {
      addCommand(program, entry, action, fields, lazy);
      continue;
    }
    // A group without a subcommand prints its help, like gh; `email help <group> <command>` is the one help command.
    const group = program.command(entry.name).description(entry.summary).helpCommand(false);
    group.hook('preSubcommand', (_, sub) => void complete(sub));
    for (const def of entry.commands) addCommand(group, def, action, fields, lazy);
  }
  addCommand(program, completionCommand(loadCommands, (all, withFields) => buildProgram(all, undefined, withFields)), action, undefined, lazy);
  addHelpCommand(program);
  return program;
}

/** gh's `help` at any depth (commander's reads one word); a word naming a help topic prints it. */
function addHelpCommand(program: Command): void {
  program.helpCommand(false);
  program
    .command('help')
    .summary('show the help of a command, or a help topic')
    .description(`Show the help of a command: \`email help campaigns unsubscribes\` is \`email campaigns unsubscribes --help\`. Or a help topic: ${Object.keys(HELP_TOPICS).join(', ')}.`)
    .argument('[command...]', 'the command, e.g. subscribers import, or a topic')
    .addHelpText('after', examplesHelp(['email help subscribers import', 'email help campaigns', 'email help environment']))
    .action(async (words: string[]) => {
      let cmd = program;
      for (const [i, word] of words.entries()) {
        const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!next && i === 0 && words.length === 1 && isHelpTopic(word)) {
          const [{ helpTopicText }, { default: importCommand }] = await Promise.all([import('./help/topics.js'), import('./commands/subscribers/import.js')]);
          program.configureOutput().writeOut!(helpTopicText(word, { globals: GLOBAL_OPTIONS, importCommand }));
          return;
        }
        if (!next) {
          const topics = i === 0 ? Object.keys(HELP_TOPICS) : [];
          const names = [...cmd.commands.map((c) => c.name()).filter((n) => n !== 'help'), ...topics];
          const near = nearNames(word, names);
          const path = words.slice(0, i + 1).join(' ');
          const what = i === 0 ? 'command or help topic' : 'command';
          const listed = topics.length ? `\nHelp topics: ${topics.join(', ')}` : '';
          throw new CommanderError(2, 'commander.unknownCommand', `error: unknown ${what} '${path}'${near.length ? `\n(Did you mean ${near.join(', ')}?)` : ''}${listed}`);
        }
        cmd = complete(next);
      }
      cmd.outputHelp();
    });
}
