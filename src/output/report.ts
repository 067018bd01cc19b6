import { isRecords, type FormatWriter, type Report, type TextOut, type View } from './format.js';
import { indent, jsonText } from './json.js';

export async function jsonReport(report: Report, out: TextOut): Promise<void> {
  await out.write('{');
  let first = true;
  const key = async (name: string) => {
    await out.write(`${first ? '\n' : ',\n'}  ${JSON.stringify(name)}: `);
    first = false;
  };
  for (const part of report.parts) {
    if (part.peopleOnly) continue;
    const value: unknown = await part.value;
    if (isRecords(value)) {
      await key(part.key ?? 'records');
      let count = 0;
      for await (const record of value) await out.write(`${count++ === 0 ? '[\n' : ',\n'}${jsonText(indent(indent(JSON.stringify(record ?? null))), out.isTTY)}`);
      await out.write(count === 0 ? '[]' : '\n  ]');
      continue;
    }
    const fields: [string, unknown][] = part.key === undefined ? Object.entries((value ?? {}) as Record<string, unknown>) : [[part.key, value]];
    for (const [name, v] of fields) {
      await key(name);
      await out.write(jsonText(JSON.stringify(v ?? null, null, 2).split('\n').join('\n  '), out.isTTY));
    }
  }
  return out.write(first ? '}\n' : '\n}\n');
}

export async function flatReport(report: Report, writer: (view: View | undefined) => FormatWriter): Promise<void> {
  const rest: Record<string, unknown> = {};
  for (const part of report.parts) {
    if (part.peopleOnly) continue;
    const value: unknown = await part.value;
    if (isRecords(value)) {
      const records = writer(part.view);
      for await (const record of value) await records.write(record);
      await records.end();
    } else if (part.key === undefined) Object.assign(rest, value);
    else rest[part.key] = value;
  }
  return writer(undefined).value(rest);
}

export interface PeopleOut {
  /** A heading is the command's own text. */
  write(text: string): Promise<void>;
  line(text: string): Promise<void>;
  print(data: unknown, view?: View): Promise<void>;
  writer(view: View | undefined): FormatWriter;
  note(line: string): void;
}

/** Titles go on stdout with their tables, so a pager or a file keeps them together. */
export async function peopleReport(report: Report, out: PeopleOut): Promise<void> {
  for (const part of report.parts) {
    if (part.machineOnly) continue;
    const value: unknown = await part.value;
    const title = typeof part.title === 'function' ? part.title() : part.title;
    // A run that fails before the first record says only why.
    if (title && !isRecords(value)) await out.line(title);
    if (part.heading !== undefined) await out.write(`${part.heading}\n`);
    if (Array.isArray(value) && value.length === 0 && part.empty) {
      await out.line(part.empty);
      continue;
    }
    if (isRecords(value)) {
      let count = 0;
      // An empty table would say '(no results)' beside the part's own word.
      let writer: FormatWriter | undefined;
      for await (const record of value) {
        if (!writer && title) await out.line(title);
        writer ??= out.writer(part.view);
        count++;
        await writer.write(record);
      }
      await writer?.end();
      if (count === 0 && title) await out.line(title);
      if (count === 0 && part.empty) await out.line(part.empty);
      continue;
    }
    const display: unknown = await part.display;
    await out.print(display ?? value, part.view);
  }
  if (report.footer) out.note(report.footer);
}
