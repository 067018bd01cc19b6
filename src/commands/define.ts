// One typed definition per command: options declared once, as data, from which
// the program, completions, docs and parse-input all derive. This module imports
// nothing heavy: help and completion read every definition, so a command loads
// its own dependencies inside `run` with `await import()`.
import type { Context } from '../context.js';
import type { PeopleOut, Result } from '../output/result.js';

/** Resources whose ids a shell completes: campaigns and smart emails from the service, lists from this profile's use. */
export const COMPLETED_IDS = ['campaign', 'smart-email', 'list'] as const;
export type CompletedId = (typeof COMPLETED_IDS)[number];

export type Completion = 'file' | 'dir' | 'profile' | CompletedId;

function idCompletion(resource: string): CompletedId | undefined {
  return (COMPLETED_IDS as readonly string[]).includes(resource) ? (resource as CompletedId) : undefined;
}

export type TextCheck = 'uuid' | 'email' | 'http-url' | 'nonblank';

interface DeclBase<T> {
  readonly flag: `--${string}`;
  readonly short?: `-${string}`;
  readonly description: string;
  /** The service's error code for a refused value (service-spec.md "Error codes"). */
  readonly code?: number;
  readonly hidden?: boolean;
  /** Where the service's name differs (`date` for --since): a user typing it is pointed here. */
  readonly serviceName?: string;
  /** Phantom: the type `run` receives for this option. */
  readonly __type?: T;
}

export interface SwitchDecl extends DeclBase<boolean> {
  readonly kind: 'switch';
}

export interface TextDecl<T extends string | undefined = string | undefined> extends DeclBase<T> {
  readonly kind: 'text';
  readonly placeholder: string;
  readonly required?: boolean;
  readonly what?: string;
  readonly hint?: string;
  readonly check?: TextCheck;
  readonly default?: string;
  readonly complete?: Completion;
  /** Offered by help and completion without refusing others (the command checks them, with its codes). */
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

export interface ArgDecl<T = unknown> {
  readonly kind: 'arg' | 'id';
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  readonly variadic: boolean;
  readonly choices?: readonly string[];
  readonly complete?: Completion;
  /** kind 'id': the id is also this option, so `summary <id>` and `--campaign <id>` both work. */
  readonly flag?: `--${string}`;
  readonly code?: number;
  readonly __type?: T;
}

export type Options = Record<string, OptionDecl>;
export type Args = Record<string, ArgDecl>;

type ValueOf<D> = D extends { readonly __type?: infer T } ? T : never;

export type Input<A extends Args, O extends Options> = { [K in keyof A]: ValueOf<A[K]> } & { [K in keyof O]: ValueOf<O[K]> };

/** --limit of a list command: its page walk reads no page past it. */
export interface ListInput {
  readonly limit?: number;
}

/** What `run` hands back: its data, and for people a table or its own view; a command never branches on the format. */
export type { Column, DisplayStyle, PeopleOut, Result } from '../output/result.js';

/** An action's people view: nothing on stdout, its message says what was done (the JSON formats have the answer). */
export const messageOnly = (): void => undefined;

/** A people view for data with no table (a raw answer): as -o json prints it; an answer with no body, nothing. */
export const asJson = async (data: unknown, out: PeopleOut): Promise<void> => (data === undefined ? undefined : out.json(data));

export interface CommandDefinition<A extends Args = Args, O extends Options = Options> {
  readonly name: string;
  readonly summary: string;
  readonly description?: string;
  readonly args?: A;
  readonly options?: O;
  /** Each is run against the sandbox by test/commands.test.ts. */
  readonly examples: readonly string[];
  readonly hidden?: boolean;
  /** What the command prints as JSON, for --fields and --jq; required so no command lacks it. `false`: no JSON at all. */
  readonly records: RecordsTrait | false;
  run(input: Input<A, O> & ListInput, ctx: Context): Promise<Result>;
}

export interface RecordsTrait {
  /** The schema of one printed record, loaded only for --fields (or completions). */
  readonly schema?: () => Promise<unknown>;
  /** --fields' names where the output is the tool's own; empty: one value without fields. Neither: any name is taken. */
  readonly fields?: readonly string[];
  readonly list?: boolean;
  /** What --limit counts, in the plural, where a record is more than one table line. */
  readonly unit?: string;
}

export const RECORD_OPTIONS = {
  fields: textOption('--fields', '<a,b,…>', 'print only these fields, in this order (names as --json spells them; Properties.Subject reaches into an object)'),
  jq: textOption('--jq', '<expression>', 'filter the JSON output with a jq expression; strings print raw, other values as compact JSON, one a line'),
  wide: switchOption('--wide', 'a table shows every column (by default one the same on every row, such as a list id, is left out; -o json has all)'),
  bom: switchOption('--bom', 'with -o csv: start with a UTF-8 byte-order mark, so spreadsheets read accents right'),
};

export const LIST_OPTIONS = {
  limit: intOption('--limit', '<n>', 'at most n records (a paged listing reads no page past the one that reaches n)', { min: 1 }),
};

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

/** A top-level entry of the program: a command or a group of them. */
export type Entry = AnyCommand | GroupDefinition;

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

/** The one required id, as first argument or as its flag (not both), checked as a UUID. */
export function idArg(resource: 'list' | 'segment' | 'campaign' | 'smart-email', description: string, extra: { code?: number } = {}): ArgDecl<string> {
  return { kind: 'id', name: resource, description, required: true, variadic: false, flag: `--${resource}`, complete: idCompletion(resource), ...extra };
}
