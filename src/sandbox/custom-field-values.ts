// Custom field values on subscribers (service-spec.md "Custom field value" rules 1-4): repeated
// Keys set a MultiSelectMany field, Clear removes, a Date field takes year-first dates or
// 0000-00-00. Keys match without case or brackets; unknown keys and values that do not fit are
// ignored, since the spec documents no error for them.
import type { CustomFieldDefinition } from './types.js';

/** service-spec.md "Custom field value" and "Limits": at most 250 characters. */
export const CUSTOM_FIELD_VALUE_LIMIT = 250;

/** service-spec.md "Custom field value": Date cleared by this value (rule 2). */
export const DATE_CLEAR_VALUE = '0000-00-00';

export interface CustomFieldItem {
  Key: string;
  Value: string;
  Clear: boolean;
}

/** The Key the service generates from a FieldName: `[FieldName]` without spaces. */
export function fieldKeyFor(fieldName: string): string {
  return `[${fieldName.replace(/\s+/g, '')}]`;
}

function normalizeKey(key: string): string {
  const trimmed = key.trim();
  const bare = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  return bare.replace(/\s+/g, '').toLowerCase();
}

export class FieldIndex {
  private readonly byKey = new Map<string, CustomFieldDefinition>();
  /** Keys as submitted → definition (or null), so a batch normalises each distinct key once. */
  private readonly memo = new Map<string, CustomFieldDefinition | null>();

  constructor(readonly definitions: readonly CustomFieldDefinition[]) {
    for (const def of definitions) {
      this.byKey.set(normalizeKey(def.Key), def);
      this.byKey.set(normalizeKey(def.FieldName), def);
    }
  }

  get(key: string): CustomFieldDefinition | undefined {
    let def = this.memo.get(key);
    if (def === undefined) {
      def = this.byKey.get(normalizeKey(key)) ?? null;
      this.memo.set(key, def);
    }
    return def ?? undefined;
  }
}

type ItemsCheck = { ok: true; items: CustomFieldItem[] } | { ok: false; tooLong: boolean; message: string };

/** What a JSON value is, for messages (never the value itself, which may be huge). */
export function jsonKind(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Length in characters (code points), as the limit is written, not UTF-16 units: an emoji is one character. */
function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/**
 * Checks a CustomFields array against service-spec.md "Subscriber" and
 * "Custom field value": CustomFields is required (an array; [] supplies no
 * values), each item an object with Key (string, required), Value (string,
 * required; "" allowed) and optional Clear (boolean), and Value at most 250
 * characters ("Limits"). Anything else is a generic 400 — the spec gives no
 * code for it; a too-long value is flagged so import can report it per entry.
 */
export function checkCustomFieldItems(raw: unknown): ItemsCheck {
  if (raw === undefined || raw === null) {
    return { ok: false, tooLong: false, message: 'CustomFields is required: an array of {Key, Value} ([] for none).' };
  }
  if (!Array.isArray(raw)) return { ok: false, tooLong: false, message: 'CustomFields must be an array of {Key, Value}.' };
  const items: CustomFieldItem[] = [];
  for (let i = 0; i < raw.length; i++) {
    const item = raw[i] as Record<string, unknown> | null;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return { ok: false, tooLong: false, message: `CustomFields[${i}] must be an object {Key, Value}.` };
    }
    if (typeof item.Key !== 'string' || item.Key.trim() === '') {
      return { ok: false, tooLong: false, message: `CustomFields[${i}].Key must be a non-empty string.` };
    }
    if (typeof item.Value !== 'string') {
      return { ok: false, tooLong: false, message: `CustomFields[${i}].Value is required and must be a string (got ${jsonKind(item.Value)}).` };
    }
    if (item.Clear !== undefined && item.Clear !== null && typeof item.Clear !== 'boolean') {
      return { ok: false, tooLong: false, message: `CustomFields[${i}].Clear must be a boolean.` };
    }
    const value = item.Value;
    // Cheap bound first: a string of at most 250 UTF-16 units has at most 250 characters.
    if (value.length > CUSTOM_FIELD_VALUE_LIMIT && characterCount(value) > CUSTOM_FIELD_VALUE_LIMIT) {
      return {
        ok: false,
        tooLong: true,
        message: `Custom field value for ${item.Key} is ${characterCount(value)} characters long; the limit is ${CUSTOM_FIELD_VALUE_LIMIT}.`,
      };
    }
    items.push({ Key: item.Key, Value: value, Clear: item.Clear === true });
  }
  return { ok: true, items };
}

/**
 * Returns the new values (the input record is not modified, so a request that
 * fails later changes nothing). `allowClear` is false for add.
 */
export function applyCustomFieldItems(
  current: Record<string, string[]>,
  items: readonly CustomFieldItem[],
  fields: FieldIndex,
  allowClear: boolean,
): Record<string, string[]> {
  if (items.length === 0) return current;
  const next: Record<string, string[]> = { ...current };
  const replaced = new Set<string>();
  for (const item of items) {
    const def = fields.get(item.Key);
    if (!def) continue;
    const key = def.Key;
    if (item.Clear) {
      if (!allowClear) continue;
      if (def.DataType === 'MultiSelectMany' && item.Value !== '') {
        const option = matchOption(def, item.Value);
        const remaining = (next[key] ?? []).filter((v) => v !== (option ?? item.Value));
        if (remaining.length > 0) next[key] = remaining;
        else delete next[key];
      } else {
        delete next[key];
      }
      continue;
    }
    if (item.Value === '') continue;
    if (def.DataType === 'Date' && item.Value.trim() === DATE_CLEAR_VALUE) {
      delete next[key];
      continue;
    }
    const value = normalizeValue(def, item.Value);
    if (value === undefined) continue;
    if (def.DataType === 'MultiSelectMany') {
      if (!replaced.has(key)) {
        replaced.add(key);
        next[key] = [];
      }
      const values = next[key] ?? (next[key] = []);
      if (!values.includes(value)) values.push(value);
    } else {
      next[key] = [value];
    }
  }
  return next;
}

/** The value as stored, or undefined when it does not fit the field. */
function normalizeValue(def: CustomFieldDefinition, raw: string): string | undefined {
  const value = raw.trim();
  switch (def.DataType) {
    case 'Text':
      return raw;
    case 'Country':
      return value || undefined;
    case 'Number':
      return value !== '' && Number.isFinite(Number(value)) ? value : undefined;
    case 'Date':
      return normalizeDate(value);
    case 'MultiSelectOne':
    case 'MultiSelectMany':
    case 'USState':
      return matchOption(def, value);
  }
}

function matchOption(def: CustomFieldDefinition, value: string): string | undefined {
  const wanted = value.trim().toLowerCase();
  return def.FieldOptions.find((option) => option.toLowerCase() === wanted);
}

/** Year-first dates only (service-spec.md "Custom field value" rule 3): yyyy/mm/dd or yyyy-mm-dd → YYYY-MM-DD. */
export function normalizeDate(value: string): string | undefined {
  const m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!isCalendarDay(year, month, day)) return undefined;
  return `${m[1]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Whether year/month/day is a day of the (proleptic Gregorian) calendar; month 1-12. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Values as webhook events carry them: one {Key, Value} per value, MultiSelectMany repeated. */
export function customFieldsForEvent(values: Record<string, string[]>): { Key: string; Value: string }[] {
  const out: { Key: string; Value: string }[] = [];
  for (const [Key, list] of Object.entries(values)) for (const Value of list) out.push({ Key, Value });
  return out;
}
