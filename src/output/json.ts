// JSON and NDJSON: the service's data unchanged; at a terminal controls are
// `\uXXXX` escapes, so the text stays valid JSON.
import type { FormatWriter, TextOut } from './format.js';
import { jsonForTerminal } from './sanitize.js';

/** JSON text as it may reach stdout: escaped for a terminal, unchanged elsewhere. */
export function jsonText(json: string, isTTY: boolean): string {
  return isTTY ? jsonForTerminal(json) : json;
}

export function indent(json: string): string {
  return json
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

/** A list as one array written record by record; one value pretty-printed, or on one line (`oneLine`: a server's ready line, read as soon as it comes). */
export function jsonWriter(out: TextOut, oneLine = false): FormatWriter {
  let count = 0;
  return {
    write: (record) => out.write(`${count++ === 0 ? '[\n' : ',\n'}${jsonText(indent(JSON.stringify(record ?? null, null, 2)), out.isTTY)}`),
    end: () => out.write(count === 0 ? '[]\n' : '\n]\n'),
    value: (value) => out.write(`${jsonText(JSON.stringify(value ?? null, null, oneLine ? undefined : 2), out.isTTY)}\n`),
  };
}

export function ndjsonWriter(out: TextOut): FormatWriter {
  const write = (record: unknown) => out.write(`${jsonText(JSON.stringify(record ?? null), out.isTTY)}\n`);
  return { write, end: async () => undefined, value: write };
}
