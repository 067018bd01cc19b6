// One typed definition per command (ENGINEERING.md "Layout"): its name, one-line
// summary, positional arguments, options, examples and run function. The
// options are declared once, as data: the program builds its commander tree
// from them (src/program.ts), completions and the docs' command table are
// generated from them, and src/commands/parse-input.ts turns what the user
// typed into the typed object `run` receives, checked once, with one error
// shape (`--batch-size must be 1..1000 (got 1001)`, exit 2).
//
// This module and the definitions import nothing heavy: help and completion
// read every definition, so a command's own dependencies (API functions,
// schemas, the importer) are loaded inside its `run` with `await import()`.
import type { Context } from '../context.js';
import type { View } from '../output/render.js';
import type { Serving } from '../output/serving.js';

/**
 * Resources whose ids a shell completes (`email __ids <kind>`): campaigns and
 * smart emails asked of the service, lists from what this profile used.
 */
export const COMPLETED_IDS = ['campaign', 'smart-email', 'list'] as const;
export type CompletedId = (typeof COMPLETED_IDS)[number];

/** What a shell completes a value with. */
export type Completion = 'file' | 'dir' | 'profile' | CompletedId;

/** The ids completed for a resource named by an id's argument or flag, if the shells can offer any. */
function idCompletion(resource: string): CompletedId | undefined {
  return (COMPLETED_IDS as readonly string[]).includes(resource) ? (resource as CompletedId) : undefined;
}

/** A check applied to a text value, with the service's code when the rule is the service's. */
export type TextCheck = 'uuid' | 'email' | 'http-url' | 'nonblank';

interface DeclBase<T> {
  /** Long flag, e.g. `--batch-size`. */
  readonly flag: `--${string}`;
  /** Short flag, e.g. `-y`. */
  readonly short?: `-${string}`;
  readonly description: string;
  /** The service's error code for a refused value (service-spec.md "Error codes"). */
  readonly code?: number;
  readonly hidden?: boolean;
  /** The service's name for what this option sends, where it differs (`date` for --since): a user typing it is pointed here. */
  readonly serviceName?: string;
  /** Phantom: the type `run` receives for this option. */
  readonly __type?: T;
}

export interface SwitchDecl extends DeclBase<boolean> {
  readonly kind: 'switch';
}

export interface TextDecl<T extends string | undefined = string | undefined> extends DeclBase<T> {
  readonly kind: 'text';
  /** Shown in help, e.g. `<addr>`. */
  readonly placeholder: string;
  readonly required?: boolean;
  /** What the value is, for the error when a required one is missing ("the campaign id"). */
  readonly what?: string;
  /** The hint under that error. */
  readonly hint?: string;
  readonly check?: TextCheck;
  readonly default?: string;
  readonly complete?: Completion;
  /** Values offered by help and completion, without refusing others (the command checks them itself, with its codes). */
  readonly suggest?: readonly string[];
}

export interface IntDecl<T extends number | undefined = number | undefined> extends DeclBase<T> {
  readonly kind: 'int';
  readonly placeholder: string;
  readonly min: number;
  readonly max?: number;
  readonly default?: number;
}

export interface NumberDecl<T extends number | undefined = number | undefined> extends DeclBase<T> {
  readonly kind: 'number';
  readonly placeholder: string;
  /** Smallest value allowed; `exclusiveMin` makes it a strict bound. */
  readonly min: number;
  readonly exclusiveMin?: boolean;
  readonly max?: number;
  readonly default?: number;
}

export interface ChoiceDecl<C extends string = string, T extends C | undefined = C | undefined> extends DeclBase<T> {
  readonly kind: 'choice';
  readonly placeholder: string;
  /** Matched without regard to case; `run` receives the spelling given here. */
  readonly choices: readonly C[];
  readonly default?: C;
  readonly required?: boolean;
}

export interface ListDecl extends DeclBase<string[]> {
  readonly kind: 'list';
  readonly placeholder: string;
  readonly check?: TextCheck;
  readonly complete?: Completion;
}

export type OptionDecl = SwitchDecl | TextDecl<string | undefined> | TextDecl<string> | IntDecl<number | undefined> | IntDecl<number> | NumberDecl<number | undefined> | NumberDecl<number> | ChoiceDecl<string, string | undefined> | ChoiceDecl<string, string> | ListDecl;

/** A positional argument. */
export interface ArgDecl<T = unknown> {
  readonly kind: 'arg' | 'id';
  /** As shown in usage, e.g. `file`, `saved-file`. */
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  readonly variadic: boolean;
  readonly choices?: readonly string[];
  readonly complete?: Completion;
  /**
   * kind 'id': the resource id that is also an option (`--campaign <id>`),
   * so `email campaigns summary <id>` and `--campaign <id>` both work
   * (CLI.md "Commands": positional identifiers).
   */
  readonly flag?: `--${string}`;
  readonly code?: number;
  readonly __type?: T;
}

export type Options = Record<string, OptionDecl>;
export type Args = Record<string, ArgDecl>;

type ValueOf<D> = D extends { readonly __type?: infer T } ? T : never;

/** Every declared argument and option, parsed and checked. */
export type Input<A extends Args, O extends Options> = { [K in keyof A]: ValueOf<A[K]> } & { [K in keyof O]: ValueOf<O[K]> };

/**
 * --limit (LIST_OPTIONS) of a list command: an input of its page walk, which
 * reads no page past it; never set for a command that is not a list.
 */
export interface ListInput {
  readonly limit?: number;
}

/**
 * What `run` hands back (ENGINEERING.md habit 14): data for the one renderer
 * (src/output/render.ts), which decides everything per format, and how the
 * command ended. A command never branches on the output format.
 */
export interface Result {
  /**
   * Records (an array, or an async iterable that yields them as they come: a
   * page walk), one record, or one value: -o json prints it unchanged (the service's data).
   */
  data?: unknown;
  /** Which columns matter in a table (and how their values read). */
  view?: View;
  /**
   * What a table shows instead of `data`: the data reshaped for people (one
   * line per action, per target); a function of the data when --limit must
   * count the data's records, not the lines (it gets them already limited).
   */
  display?: unknown;
  /**
   * `data` is an action's answer (preview, unschedule, update, …): one JSON
   * value under --json and -o ndjson, nothing on stdout for people, who read `message`.
   */
  action?: boolean;
  /**
   * One line for people on stderr once the data is out (a `notice` in machine
   * mode); not with --quiet. A function when it is known only then (data that streams).
   */
  message?: string | (() => string | undefined);
  /** Lines only people reading a table need, on stderr after the data (scripts have the data); not with --quiet. */
  notes?: string[];
  /** Runs once the data is out: what only the end of streamed data can say (a walk's paging facts). */
  done?: () => void;
  /**
   * Ends the command once the data is out (an import's partial success: exit 3,
   * and why); a function when it is known only then (data that streams).
   */
  error?: Error | (() => Error | undefined);
  exitCode?: number;
  /**
   * The command keeps running once its data is out, until it is stopped (a
   * server: `sandbox`; `webhooks listen`, whose data are records without end,
   * view.endless): the edge waits for the first Ctrl-C or SIGTERM, its normal
   * end, then calls stop() (src/output/serving.ts).
   */
  serving?: Serving;
}

export interface CommandDefinition<A extends Args = Args, O extends Options = Options> {
  readonly name: string;
  readonly summary: string;
  /** Longer help shown under the summary in the command's --help. */
  readonly description?: string;
  readonly args?: A;
  readonly options?: O;
  /** Command lines shown under "Examples:"; each is run against the sandbox by test/commands.test.ts. */
  readonly examples: readonly string[];
  readonly hidden?: boolean;
  /**
   * What the command prints as JSON, for --fields and --jq (CLI.md): required,
   * so a new command cannot be without them. The program gives every command
   * with JSON those options, declared once below (RECORD_OPTIONS,
   * LIST_OPTIONS), and the renderer applies them to whatever the command
   * prints, so no command handles them itself. `false`: it prints no JSON at
   * all (a completion script, the messages of a login).
   */
  readonly records: RecordsTrait | false;
  /** Parsed, checked input in; its data and how it ended out, for the edge to render (it never prints). */
  run(input: Input<A, O> & ListInput, ctx: Context): Promise<Result>;
}

export interface RecordsTrait {
  /**
   * The schema of one printed record (src/schemas/), loaded only when the
   * command runs with --fields (or to generate completions): its field
   * names are the ones --fields accepts.
   */
  readonly schema?: () => Promise<unknown>;
  /**
   * The field names --fields accepts, where what is printed is the tool's own
   * (an import's summary, doctor's checks) rather than a schema's record. An
   * empty list: the output is one value with no fields (a created id).
   * Neither this nor a schema (`email api`): any name is taken.
   */
  readonly fields?: readonly string[];
  /** A list (or a paged listing): --limit bounds it. */
  readonly list?: boolean;
  /** What --limit counts, in the plural, where a record is more than one line of the table (`campaign entries`). */
  readonly unit?: string;
}

/** What every command that prints JSON has (CLI.md `--fields`, `--jq`). */
export const RECORD_OPTIONS = {
  fields: textOption('--fields', '<a,b,…>', 'print only these fields, in this order (names as --json spells them; Properties.Subject reaches into an object)'),
  jq: textOption('--jq', '<expression>', 'filter the JSON output with a jq expression; strings print raw, other values as compact JSON, one a line'),
  wide: switchOption('--wide', 'a table shows every column (by default one the same on every row, such as a list id, is left out; -o json has all)'),
  bom: switchOption('--bom', 'with -o csv: start with a UTF-8 byte-order mark, so spreadsheets read accents right'),
};

/** What every list and paged command has (CLI.md `--limit`). */
export const LIST_OPTIONS = {
  limit: intOption('--limit', '<n>', 'at most n records (a paged listing reads no page past the one that reaches n)', { min: 1 }),
};

/** The options a command gets from its traits, declared once for all (the program adds them; parse-input reads them). */
export function sharedOptions(def: AnyCommand): Options {
  if (def.records === false) return {};
  const { list, unit } = def.records;
  if (!list) return { ...RECORD_OPTIONS };
  // --limit counts the records --json prints, in every format: the help says what they are where a table has more lines.
  const limit = unit ? { ...LIST_OPTIONS.limit, description: `at most n ${unit} in every format (the records --json prints), a table's lines for each included` } : LIST_OPTIONS.limit;
  return { ...RECORD_OPTIONS, limit };
}

export interface GroupDefinition {
  readonly name: string;
  readonly summary: string;
  readonly commands: readonly AnyCommand[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = CommandDefinition<any, any>;

export function defineCommand<A extends Args = {}, O extends Options = {}>(definition: CommandDefinition<A, O>): CommandDefinition<A, O> {
  return definition;
}

export function defineGroup(group: GroupDefinition): GroupDefinition {
  return group;
}

// ---- option builders -------------------------------------------------------

type Extra<D> = Omit<D, 'kind' | 'flag' | 'description' | 'placeholder' | 'choices' | '__type'>;

export function switchOption(flag: `--${string}`, description: string, extra: Extra<SwitchDecl> = {}): SwitchDecl {
  return { kind: 'switch', flag, description, ...extra };
}

export function textOption(flag: `--${string}`, placeholder: string, description: string, extra: Extra<TextDecl> & { required: true }): TextDecl<string>;
export function textOption(flag: `--${string}`, placeholder: string, description: string, extra: Extra<TextDecl> & { default: string }): TextDecl<string>;
export function textOption(flag: `--${string}`, placeholder: string, description: string, extra?: Extra<TextDecl>): TextDecl<string | undefined>;
export function textOption(flag: `--${string}`, placeholder: string, description: string, extra: Extra<TextDecl> = {}): TextDecl {
  return { kind: 'text', flag, placeholder, description, ...extra };
}

/** A resource identifier given as an option only (`--list <id>`), required and checked as a UUID. */
export function idOption(flag: `--${string}`, description: string, extra: Extra<TextDecl> = {}): TextDecl<string> {
  return { kind: 'text', flag, placeholder: '<id>', description, required: true, check: 'uuid', complete: idCompletion(flag.slice(2)), ...extra } as TextDecl<string>;
}

export function intOption(flag: `--${string}`, placeholder: string, description: string, extra: Extra<IntDecl> & { min: number; default: number }): IntDecl<number>;
export function intOption(flag: `--${string}`, placeholder: string, description: string, extra: Extra<IntDecl> & { min: number }): IntDecl<number | undefined>;
export function intOption(flag: `--${string}`, placeholder: string, description: string, extra: Extra<IntDecl> & { min: number }): IntDecl {
  return { kind: 'int', flag, placeholder, description, ...extra };
}

export function numberOption(flag: `--${string}`, placeholder: string, description: string, extra: Extra<NumberDecl> & { min: number; default: number }): NumberDecl<number>;
export function numberOption(flag: `--${string}`, placeholder: string, description: string, extra: Extra<NumberDecl> & { min: number }): NumberDecl<number | undefined>;
export function numberOption(flag: `--${string}`, placeholder: string, description: string, extra: Extra<NumberDecl> & { min: number }): NumberDecl {
  return { kind: 'number', flag, placeholder, description, ...extra };
}

export function choiceOption<const C extends string>(flag: `--${string}`, placeholder: string, description: string, choices: readonly C[], extra: Extra<ChoiceDecl<C>> & { default: C }): ChoiceDecl<C, C>;
export function choiceOption<const C extends string>(flag: `--${string}`, placeholder: string, description: string, choices: readonly C[], extra: Extra<ChoiceDecl<C>> & { required: true }): ChoiceDecl<C, C>;
export function choiceOption<const C extends string>(flag: `--${string}`, placeholder: string, description: string, choices: readonly C[], extra?: Extra<ChoiceDecl<C>>): ChoiceDecl<C, C | undefined>;
export function choiceOption<const C extends string>(flag: `--${string}`, placeholder: string, description: string, choices: readonly C[], extra: Extra<ChoiceDecl<C>> = {}): ChoiceDecl<C> {
  return { kind: 'choice', flag, placeholder, description, choices, ...extra } as ChoiceDecl<C>;
}

/** A repeatable option: every value, in order (`--field A=1 --field B=2`). */
export function listOption(flag: `--${string}`, placeholder: string, description: string, extra: Extra<ListDecl> = {}): ListDecl {
  return { kind: 'list', flag, placeholder, description, ...extra };
}

// ---- argument builders ----------------------------------------------------

export function requiredArg<const C extends string>(name: string, description: string, extra: { choices: readonly C[] }): ArgDecl<C>;
export function requiredArg(name: string, description: string, extra?: { complete?: Completion }): ArgDecl<string>;
export function requiredArg(name: string, description: string, extra: { complete?: Completion; choices?: readonly string[] } = {}): ArgDecl<string> {
  return { kind: 'arg', name, description, required: true, variadic: false, ...extra };
}

export function variadicArg(name: string, description: string, extra: { complete?: Completion } = {}): ArgDecl<string[]> {
  return { kind: 'arg', name, description, required: true, variadic: true, ...extra };
}

/**
 * The one required resource id of a command, given as the first argument or
 * as its flag (`email campaigns summary <id>` or `--campaign <id>`); both,
 * differently, is a usage error. Checked as a UUID.
 */
export function idArg(resource: 'list' | 'segment' | 'campaign' | 'smart-email', description: string, extra: { code?: number } = {}): ArgDecl<string> {
  return { kind: 'id', name: resource, description, required: true, variadic: false, flag: `--${resource}`, complete: idCompletion(resource), ...extra };
}
