// What --fields, --jq and --limit do to printed records, in one place, so no
// command handles them. --fields keys stay flat (`"Properties.Subject"`) so JSON
// keys, CSV headers and table columns are the same names; --jq runs last, on
// what `-o json` would print. Both are checked before anything is sent.
import { UsageError } from '../core/errors.js';
import { isPagedEnvelope } from '../core/paged-envelope.js';
import type { JqFilter } from './jq.js';

export interface Shape {
  /** Field paths, in the order asked, as the schema spells them. */
  fields?: readonly string[];
  jq?: JqFilter;
  limit?: number;
  wide?: boolean;
  bom?: boolean;
}

export interface ShapeOptions {
  fields?: unknown;
  jq?: unknown;
  limit?: number;
  wide?: boolean;
  bom?: boolean;
}

export interface KnownFields {
  schema?: () => Promise<unknown>;
  fields?: readonly string[];
}

/** `known` is read only with --fields; `loadJq` is called only with --jq. */
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

/** An unknown name is a usage error listing the known ones. */
export function matchFields(asked: readonly string[], known: readonly string[]): string[] {
  const byLower = new Map(known.map((k) => [k.toLowerCase(), k]));
  // A number step indexes an array: matched as the field without it.
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

/** Keyed as the record spells the field (for `email api`, matched in the records themselves), else as given; missing is null. */
export function project(record: unknown, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) out[spelledPath(record, field) ?? field] = pickField(record, field) ?? null;
  return out;
}

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

/** Each step matches exactly, else without case; over an array a name collects, a number indexes. */
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
