// Turns what commander collected into the typed input `run` receives. Every
// option is checked here once, with one refusal shape: a UsageError (exit 2,
// nothing sent) with the service's code when the rule is the service's.
import { UsageError } from '../core/errors.js';
import { cleanInvisible, isUuid, isValidEmail, showInvisible } from '../validation/email-address.js';
import { isHttpUrl } from '../validation/option-checks.js';
import { LIST_OPTIONS, sharedOptions, type AnyCommand, type ArgDecl, type OptionDecl, type Options, type TextCheck } from './define.js';

/** `--batch-size` → batchSize, `--no-color` → color. */
function attributeName(flag: string): string {
  const name = flag.replace(/^--(no-)?/, '');
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function parseOptions(decls: Options, raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Every missing required flag is named at once, not one per run.
  const missing: OptionDecl[] = [];
  for (const [key, decl] of Object.entries(decls)) {
    const value = raw[attributeName(decl.flag)];
    if (value === undefined && (decl.kind === 'text' || decl.kind === 'choice') && decl.required && decl.default === undefined) missing.push(decl);
    else out[key] = parseOption(decl, value);
  }
  if (missing.length === 1) parseOption(missing[0]!, undefined);
  if (missing.length > 1) {
    const flags = missing.map((d) => d.flag);
    const what = missing.map((d) => `${d.flag} ${'placeholder' in d ? d.placeholder : ''} (${requiredWhat(d)})`);
    const error = new UsageError(`${flags.slice(0, -1).join(', ')} and ${flags.at(-1)} are required: ${what.join('; ')}`);
    const hints = missing.flatMap((d) => (d.kind === 'text' && d.hint ? [d.hint] : []));
    if (hints.length) error.hint = hints.join(' ');
    throw error;
  }
  return out;
}

function requiredWhat(decl: OptionDecl): string {
  if (decl.kind === 'choice') return `one of ${decl.choices.join(', ')}`;
  return (decl.kind === 'text' && decl.what) || decl.description;
}

export function parseInput(def: AnyCommand, raw: Record<string, unknown>, positional: readonly unknown[]): Record<string, unknown> {
  const out = parseOptions(def.options ?? {}, raw);
  const args = Object.entries((def.args ?? {}) as Record<string, ArgDecl>);
  args.forEach(([key, decl], index) => {
    out[key] = parseArg(decl, positional[index], raw);
  });
  // A list's walk stops at --limit (the renderer cuts lists that are not walked).
  if (def.records && def.records.list) out.limit = parseOption(LIST_OPTIONS.limit, raw[attributeName(LIST_OPTIONS.limit.flag)]);
  return out;
}

/** --fields, --jq, --limit, --wide and --bom checked against the format before anything is sent; undefined when none was given (src/cli.ts resolves them). */
export function shapeOptions(def: AnyCommand, raw: Record<string, unknown>, format: string): ShapeOptions | undefined {
  if (!def.records) return undefined;
  const options = parseOptions(sharedOptions(def), raw) as ShapeOptions;
  if (options.jq !== undefined && (format === 'csv' || format === 'ndjson')) {
    throw new UsageError(`--jq prints jq's results, one a line: leave out -o ${format}`);
  }
  if (options.bom && format !== 'csv') throw new UsageError(`--bom starts CSV with a byte-order mark: add -o csv (the output is ${format})`);
  // Nothing asked for: nothing to load, for the startup of every read.
  if (options.fields === undefined && options.jq === undefined && options.limit === undefined && !options.wide && !options.bom) return undefined;
  return options;
}

export interface ShapeOptions {
  fields?: string;
  jq?: string;
  limit?: number;
  wide?: boolean;
  bom?: boolean;
}

function parseArg(decl: ArgDecl, value: unknown, raw: Record<string, unknown>): unknown {
  if (decl.kind === 'id') {
    const flag = decl.flag!;
    const fromFlag = raw[attributeName(flag)];
    if (typeof value === 'string' && typeof fromFlag === 'string' && value.trim() !== fromFlag.trim()) {
      throw new UsageError(`the ${decl.name} was given twice, differently: "${value}" and ${flag} "${fromFlag}"; give one`);
    }
    const given = typeof value === 'string' ? value : fromFlag;
    if (given === undefined) throw new UsageError(`${flag} is required: ${decl.description} (or give it as the first argument)`, decl.code);
    return checkText(String(given), flag, 'uuid', decl.code);
  }
  if (decl.variadic) return Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];
  if (value === undefined) return undefined;
  const text = String(value);
  if (decl.choices) {
    const match = decl.choices.find((c) => c.toLowerCase() === text.trim().toLowerCase());
    if (!match) throw new UsageError(`<${decl.name}> must be one of ${decl.choices.join(', ')} (got "${text}")`);
    return match;
  }
  return text;
}

function parseOption(decl: OptionDecl, value: unknown): unknown {
  switch (decl.kind) {
    case 'switch':
      // `--no-color` is stored by commander as color: false.
      return decl.flag.startsWith('--no-') ? value === false : value === true;
    case 'text': {
      if (value === undefined) {
        if (decl.default !== undefined) return decl.default;
        if (decl.required) {
          const error = new UsageError(`${decl.flag} is required${decl.what ? `: ${decl.what}` : ''}`, decl.code);
          if (decl.hint) error.hint = decl.hint;
          throw error;
        }
        return undefined;
      }
      return decl.check ? checkText(String(value), decl.flag, decl.check, decl.code) : String(value);
    }
    case 'int':
    case 'number': {
      if (value === undefined) return decl.default;
      const text = String(value).trim();
      const n = decl.kind === 'int' ? (/^[-+]?\d+$/.test(text) ? Number(text) : NaN) : text === '' ? NaN : Number(text);
      const low = decl.kind === 'number' && decl.exclusiveMin ? n <= decl.min : n < decl.min;
      if (!Number.isFinite(n) || low || (decl.max !== undefined && n > decl.max)) {
        throw new UsageError(`${decl.flag} must be ${describeRange(decl)} (got ${JSON.stringify(String(value))})`, decl.code);
      }
      return n;
    }
    case 'choice': {
      if (value === undefined) {
        if (decl.default !== undefined) return decl.default;
        if (decl.required) throw new UsageError(`${decl.flag} is required: one of ${decl.choices.join(', ')}`, decl.code);
        return undefined;
      }
      const text = String(value);
      const match = decl.choices.find((c) => c.toLowerCase() === text.trim().toLowerCase());
      if (!match) throw new UsageError(`${decl.flag} must be one of ${decl.choices.join(', ')} (got "${text}")`, decl.code);
      return match;
    }
    case 'list': {
      const values = value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String);
      return decl.check ? values.map((v) => checkText(v, decl.flag, decl.check!, decl.code)) : values;
    }
  }
}

function describeRange(decl: { kind: 'int' | 'number'; min: number; max?: number; exclusiveMin?: boolean }): string {
  const what = decl.kind === 'int' ? 'a whole number' : 'a number';
  if (decl.max !== undefined) return decl.kind === 'int' ? `${decl.min}..${decl.max}` : `${what} from ${decl.min} to ${decl.max}`;
  if (decl.exclusiveMin) return `${what} above ${decl.min}`;
  return `${what} of at least ${decl.min}`;
}

/** An address spoiled by invisible characters (pasted from a page) is refused, not cleaned. */
function invisibleHint(value: string): string {
  const cleaned = cleanInvisible(value.trim());
  return cleaned ? `: it holds invisible characters (${cleaned.removed.join(', ')}); without them it is ${cleaned.address}` : '';
}

const UUID_EXAMPLE = '3f2b8c1e-0a4d-4c6b-9e1f-2a7d5c9b8e41 or 3f2b8c1e0a4d4c6b9e1f2a7d5c9b8e41';

/** Returned trimmed (uuid, email, url) or as typed (nonblank). */
function checkText(value: string, flag: string, check: TextCheck, code?: number): string {
  switch (check) {
    case 'uuid':
      if (!isUuid(value.trim())) throw new UsageError(`${flag} must be a UUID such as ${UUID_EXAMPLE} (got "${value}")`, code);
      return value.trim();
    case 'email':
      if (!isValidEmail(value)) throw new UsageError(`${flag} must be a valid email address (got "${showInvisible(value)}")${invisibleHint(value)}`, code);
      return value.trim();
    case 'http-url':
      if (!isHttpUrl(value)) throw new UsageError(`${flag} must be an absolute http:// or https:// URL (got "${value}")`, code);
      return value.trim();
    case 'nonblank':
      if (value.trim() === '') throw new UsageError(`${flag} must not be blank`, code);
      return value;
  }
}
