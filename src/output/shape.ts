// What --fields, --jq and --limit do to the records a command prints (CLI.md
// `--fields`, `--jq`, `--limit`), in one place: the renderer (render.ts)
// applies a Shape to everything it prints, so no command handles them.
//
// - --limit keeps the first n records of a list (the records of a paged
//   envelope, `Results`); a paged walk also reads no page past the one that
//   reaches n (core/paginate.ts `recordLimit`).
// - --fields keeps these fields, in this order, in every format. Names are
//   matched without regard to case against the names of the command's record
//   schema (src/schemas/) and printed as the schema spells them; a dotted
//   name reaches into an object (`Properties.Subject`), and over an array it
//   collects the field of every element (`Actions.Event` → ["Open","Click"]).
//   Keys stay flat (`"Properties.Subject": …`) so JSON keys, CSV headers and
//   table columns are the same names in the same order.
// - --jq runs last, on exactly what `-o json` would print (src/output/jq.ts).
//
// Checked before anything is sent: an unknown field is a usage error naming
// the known ones; a malformed jq expression is one too.
import { UsageError } from '../core/errors.js';
import type { JqFilter } from './jq.js';

export interface Shape {
  /** Field paths, in the order asked, as the schema spells them (or as typed when the command has no schema). */
  fields?: readonly string[];
  jq?: JqFilter;
  limit?: number;
  /** --wide: a table shows every column, those its command keeps for --wide too. */
  wide?: boolean;
  /** --bom: CSV starts with a UTF-8 byte-order mark, for spreadsheets. */
  bom?: boolean;
}

/** The options of RECORD_OPTIONS / LIST_OPTIONS as commander collected them (raw strings). */
export interface ShapeOptions {
  fields?: unknown;
  jq?: unknown;
  limit?: number;
  wide?: boolean;
  bom?: boolean;
}

/** What --fields accepts: a record schema (loaded only with --fields) or the names themselves; neither, any name. */
export interface KnownFields {
  schema?: () => Promise<unknown>;
  fields?: readonly string[];
}

/**
 * The shape a command's output gets. `known` gives the field names (read only
 * with --fields); `loadJq` compiles an expression (only called with --jq).
 */
export async function resolveShape(options: ShapeOptions, known: KnownFields, loadJq: (expression: string) => Promise<JqFilter>): Promise<Shape> {
  const shape: Shape = {};
  if (options.limit !== undefined) shape.limit = options.limit;
  if (options.wide) shape.wide = true;
  if (options.bom) shape.bom = true;
  if (options.fields !== undefined) {
    const asked = String(options.fields)
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    if (!asked.length) throw new UsageError('--fields needs at least one field name, e.g. --fields EmailAddress,Date');
    const names = known.fields ?? (known.schema ? fieldNames(await known.schema()) : undefined);
    shape.fields = names ? matchFields(asked, names) : asked;
  }
  if (options.jq !== undefined) {
    if (String(options.jq).trim() === '') throw new UsageError('--jq needs an expression, e.g. --jq ".[].EmailAddress"');
    shape.jq = await loadJq(String(options.jq));
  }
  return shape;
}

/** The asked names as the schema spells them; an unknown one is a usage error listing the known ones. */
export function matchFields(asked: readonly string[], known: readonly string[]): string[] {
  const byLower = new Map(known.map((k) => [k.toLowerCase(), k]));
  // A number step indexes an array (`RuleGroups.0.Rules`): matched as the field without it (`RuleGroups.Rules`).
  const spelled = (name: string): string | undefined => {
    const parts = name.split('.');
    const named = byLower.get(parts.filter((p) => !/^\d+$/.test(p)).join('.').toLowerCase());
    if (named === undefined || parts.every((p) => /^\d+$/.test(p))) return undefined;
    const names = named.split('.');
    return parts.map((p) => (/^\d+$/.test(p) ? p : names.shift()!)).join('.');
  };
  const unknown = asked.filter((a) => spelled(a) === undefined);
  if (unknown.length && !known.length) throw new UsageError('--fields: this command prints one value (an id or a word), which has no fields; leave --fields out');
  if (unknown.length) {
    const which = unknown.length === 1 ? `unknown field "${unknown[0]}"` : `unknown fields ${unknown.map((u) => `"${u}"`).join(', ')}`;
    throw new UsageError(`--fields: ${which}; the fields are ${known.join(', ')}`);
  }
  return asked.map((a) => spelled(a)!);
}

// ---- field names from a zod (zod/mini) schema --------------------------------

interface ZodDef {
  type: string;
  shape?: Record<string, { _zod: { def: ZodDef } }>;
  element?: { _zod: { def: ZodDef } };
  innerType?: { _zod: { def: ZodDef } };
  options?: { _zod: { def: ZodDef } }[];
}

function defOf(schema: unknown): ZodDef | undefined {
  return (schema as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def;
}

/** The object a record schema describes, through optional, nullable, array and union wrappers. */
function recordObject(def: ZodDef | undefined, depth = 0): ZodDef | undefined {
  if (!def || depth > 8) return undefined;
  switch (def.type) {
    case 'object':
      return def;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return recordObject(defOf(def.innerType), depth + 1);
    case 'array':
      return recordObject(defOf(def.element), depth + 1);
    case 'union':
      for (const option of def.options ?? []) {
        const found = recordObject(defOf(option), depth + 1);
        if (found) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Every field name of a record schema, nested objects and arrays of objects
 * included as dotted names (`Properties`, `Properties.Subject`, `Actions`, `Actions.Event`).
 */
export function fieldNames(schema: unknown): string[] {
  const names: string[] = [];
  const visit = (def: ZodDef | undefined, prefix: string, depth: number) => {
    const object = recordObject(def);
    if (!object?.shape || depth > 4) return;
    for (const [key, value] of Object.entries(object.shape)) {
      const name = prefix ? `${prefix}.${key}` : key;
      names.push(name);
      visit(defOf(value), name, depth + 1);
    }
  };
  visit(defOf(schema), '', 0);
  return names;
}

// ---- applying a shape ----------------------------------------------------------

/** The service's paged envelope (service-spec.md "Paged result envelope"): its records are `Results`. */
export function isPagedEnvelope(data: unknown): data is { Results: unknown[] } & Record<string, unknown> {
  return data !== null && typeof data === 'object' && !Array.isArray(data) && Array.isArray((data as { Results?: unknown }).Results) && 'PageNumber' in data;
}

/** `data` with --limit and --fields applied: to each element of a list, to `Results` of an envelope, or to one record. */
export function shapeData(data: unknown, shape: Shape): unknown {
  if (shape.limit === undefined && !shape.fields) return data;
  if (Array.isArray(data)) return shapeList(data, shape);
  if (isPagedEnvelope(data)) return { ...data, Results: shapeList(data.Results, shape) };
  return shape.fields && data !== null && typeof data === 'object' ? project(data, shape.fields) : data;
}

function shapeList(items: unknown[], shape: Shape): unknown[] {
  const kept = shape.limit !== undefined ? items.slice(0, shape.limit) : items;
  return shape.fields ? kept.map((item) => project(item, shape.fields!)) : kept;
}

/**
 * One record reduced to `fields`, in their order; a field it lacks is null.
 * Keyed as the record spells the field (for `email api`, whose names are
 * matched in the records themselves), else as given.
 */
export function project(record: unknown, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) out[spelledPath(record, field) ?? field] = pickField(record, field) ?? null;
  return out;
}

/** `path` as `record` spells it (`emailaddress` → `EmailAddress`), when its object steps are all there. */
function spelledPath(record: unknown, path: string): string | undefined {
  const spelled: string[] = [];
  let value = record;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return spelled.length ? [...spelled, ...path.split('.').slice(spelled.length)].join('.') : undefined;
    const object = value as Record<string, unknown>;
    const key = part in object ? part : Object.keys(object).find((k) => k.toLowerCase() === part.toLowerCase());
    if (key === undefined) return undefined;
    spelled.push(key);
    value = object[key];
  }
  return spelled.join('.');
}

/**
 * The value at a dotted path. Each step matches the key exactly, else without
 * regard to case; over an array a name step collects it from every element
 * (`Actions.Event`), a number step indexes it (`RuleGroups.0`).
 */
function pickField(value: unknown, path: string): unknown {
  return pickParts(value, path.split('.'));
}

function pickParts(value: unknown, parts: readonly string[]): unknown {
  if (!parts.length) return value;
  if (value === null || typeof value !== 'object') return undefined;
  const [part, ...rest] = parts as [string, ...string[]];
  if (Array.isArray(value)) {
    if (/^\d+$/.test(part)) return pickParts(value[Number(part)], rest);
    return value.map((element) => pickParts(element, parts) ?? null);
  }
  const record = value as Record<string, unknown>;
  if (part in record) return pickParts(record[part], rest);
  const lower = part.toLowerCase();
  const key = Object.keys(record).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : pickParts(record[key], rest);
}
