// CLI.md "JSON input": any flag that takes a JSON document accepts @file and @- (stdin).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { UsageError } from './errors.js';

export async function readText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads the flag's value as JSON text, @file or @-, and parses it; errors name the flag and the position. */
export async function readJsonArgument(value: string, flag: string, stdin: Readable, cwd: string): Promise<unknown> {
  let text: string;
  let source: string;
  if (value === '@-') {
    text = await readText(stdin);
    source = 'stdin';
  } else if (value.startsWith('@')) {
    const file = value.slice(1);
    try {
      text = await readFile(resolve(cwd, file), 'utf8');
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new UsageError(`${flag}: cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
    }
    source = file;
  } else {
    text = value;
    source = flag;
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new UsageError(`${flag}: ${source} is not valid JSON (${jsonErrorPosition(text, err as Error)})`);
  }
}

function jsonErrorPosition(text: string, err: Error): string {
  const m = /position (\d+)/.exec(err.message);
  if (!m) return err.message;
  const pos = Number(m[1]);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: ${err.message.replace(/ in JSON at position \d+.*$/, '')}`;
}
