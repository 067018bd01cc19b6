// Data that is an object holding records that come one by one (a dry run's
// problems), written as it comes so a large one never sits in memory. Its
// other values may be promises, awaited when reached; fields the command adds
// while the records come (the counts) are written after them.
import { CliError, ExitCode } from '../core/errors.js';
import { isRecords, type FormatWriter, type TextOut } from './format.js';
import { indent, jsonText } from './json.js';

/** An object, not a list, with a value that is records that come one by one. */
export function isStreamedObject(data: unknown): data is Record<string, unknown> {
  return data !== null && typeof data === 'object' && !Array.isArray(data) && !isRecords(data) && Object.values(data).some(isRecords);
}

/** The object's fields in order, each value awaited when reached; fields added meanwhile come last. */
async function* fields(data: Record<string, unknown>): AsyncGenerator<[string, unknown]> {
  const written = new Set<string>();
  for (let keys = Object.keys(data); keys.some((k) => !written.has(k)); keys = Object.keys(data)) {
    for (const key of keys.filter((k) => !written.has(k))) {
      written.add(key);
      yield [key, await data[key]];
    }
  }
}

/** As one JSON object, the streamed records as an array written as they come. */
export async function jsonObject(data: Record<string, unknown>, out: TextOut): Promise<void> {
  let first = true;
  await out.write('{');
  for await (const [name, value] of fields(data)) {
    await out.write(`${first ? '\n' : ',\n'}  ${JSON.stringify(name)}: `);
    first = false;
    if (!isRecords(value)) {
      await out.write(jsonText(JSON.stringify(value ?? null, null, 2).split('\n').join('\n  '), out.isTTY));
      continue;
    }
    let count = 0;
    for await (const record of value) await out.write(`${count++ === 0 ? '[\n' : ',\n'}${jsonText(indent(indent(JSON.stringify(record ?? null))), out.isTTY)}`);
    await out.write(count === 0 ? '[]' : '\n  ]');
  }
  return out.write(first ? '}\n' : '\n}\n');
}

/** As NDJSON or CSV: the streamed records, then the other fields as one record. */
export async function flatObject(data: Record<string, unknown>, writer: () => FormatWriter): Promise<void> {
  const rest: Record<string, unknown> = {};
  for await (const [name, value] of fields(data)) {
    if (!isRecords(value)) {
      rest[name] = value;
      continue;
    }
    const records = writer();
    for await (const record of value) await records.write(record);
    await records.end();
  }
  return writer().value(rest);
}

/** Most JSON text (in characters) of streamed records gathered for --jq or --fields. */
export const GATHERED_CHARS = 16 * 1024 * 1024;

class TooLarge extends CliError {
  readonly exitCode = ExitCode.failure;
  readonly kind = 'usage';
}

/** As the one value --json prints, for --jq and --fields, which work on a value: gathered up to a bound. */
export async function gathered(data: Record<string, unknown>): Promise<unknown> {
  let json = '';
  const write = async (text: string) => {
    json += text;
    if (json.length > GATHERED_CHARS) throw new TooLarge(`--jq and --fields read the whole report, and it passed ${GATHERED_CHARS / 1024 / 1024} MiB: leave them out and read the JSON as it streams`);
  };
  await jsonObject(data, { write, isTTY: false });
  return JSON.parse(json);
}
