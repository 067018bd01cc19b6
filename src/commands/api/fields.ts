// The -f/-F fields of `email api`, read as gh api reads them: key=value pairs
// that make the JSON body (or the query of a GET). -f sends the text as typed;
// -F reads true, false, null and numbers as JSON, and @file or @- as the
// file's text. A key ending in [] adds to an array.
import { UsageError } from '../../core/errors.js';

export interface Field {
  key: string;
  value: unknown;
}

export async function readFields(raw: readonly string[], typed: readonly string[], readText: (value: string, flag: string) => Promise<string>): Promise<Field[]> {
  const fields: Field[] = raw.map((pair) => split(pair, '-f'));
  for (const pair of typed) {
    const { key, value } = split(pair, '-F');
    fields.push({ key, value: value.startsWith('@') ? await readText(value, `-F ${key}`) : typedValue(value) });
  }
  return fields;
}

/** The fields as a JSON object: `key[]` collects into an array, a repeated key keeps the last value. */
export function fieldsObject(fields: readonly Field[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const { key, value } of fields) {
    if (key.endsWith('[]')) ((body[key.slice(0, -2)] ??= []) as unknown[]).push(value);
    else body[key] = value;
  }
  return body;
}

function split(pair: string, flag: string): { key: string; value: string } {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} takes key=value, got "${pair}"`);
  return { key: pair.slice(0, eq), value: pair.slice(eq + 1) };
}

function typedValue(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  return text;
}
