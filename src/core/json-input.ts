// CLI.md "JSON input": any flag that takes a JSON document accepts @file and @- (stdin).
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { readFileBounded, readStreamBounded } from './bounded-read.js';
import { CliError, UsageError } from './errors.js';

/** Bounded (CLI.md "answer size"), with room for the service's largest request, an import batch. */
export const MAX_JSON_INPUT_BYTES = 8 * 1024 * 1024;

/** The signal ends the wait (CLI.md "signals"). */
export async function readText(stream: Readable, options: { maxBytes: number; limit: string; name: string; signal?: AbortSignal }): Promise<string> {
  return (await readStreamBounded(stream, options)).toString('utf8');
}

/** Errors name the flag and the position. */
export async function readJsonArgument(value: string, flag: string, stdin: Readable, cwd: string, signal?: AbortSignal): Promise<unknown> {
  const { text, source } = await readArgumentText(value, flag, stdin, cwd, signal);
  const clean = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(clean);
  } catch {
    const where = source === flag ? flag : `${flag}: ${source}`;
    throw new UsageError(`${where} is not valid JSON (${describeJsonError(clean)})`);
  }
}

export async function readArgumentText(value: string, flag: string, stdin: Readable, cwd: string, signal?: AbortSignal): Promise<{ text: string; source: string }> {
  let text: string;
  let source: string;
  const limit = '8 MiB';
  if (value === '@-') {
    text = await readText(stdin, { maxBytes: MAX_JSON_INPUT_BYTES, limit, name: `${flag}: stdin`, signal });
    source = 'stdin';
  } else if (value.startsWith('@')) {
    const file = value.slice(1);
    try {
      text = (await readFileBounded(resolve(cwd, file), { maxBytes: MAX_JSON_INPUT_BYTES, limit, name: `${flag}: ${file}`, signal })).toString('utf8');
    } catch (err) {
      if (err instanceof CliError) throw err;
      const code = (err as { code?: string }).code;
      throw new UsageError(`${flag}: cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (err as Error).message}`);
    }
    source = file;
  } else {
    text = value;
    source = flag;
  }
  return { text, source };
}

/** V8's messages give a position only for some errors, so we scan ourselves. */
export function describeJsonError(text: string): string {
  let i = 0;
  const fail = (what: string): never => {
    throw Object.assign(new Error(what), { at: i });
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => (text.startsWith(word, i) ? (i += word.length) : fail(`unexpected ${show()}`));
  const show = () => (i >= text.length ? 'end of input' : `"${text[i]}"`);
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail('control character in a string');
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${show()}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ":" after a property name, found ${show()}`);
        i++;
        value();
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') return void i++;
        fail(`expected "," or "}", found ${show()}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') return void i++;
        fail(`expected "," or "]", found ${show()}`);
      }
    }
    if (c === '"') return string();
    if (c === 't') return void literal('true');
    if (c === 'f') return void literal('false');
    if (c === 'n') return void literal('null');
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
    if (m && m[0].length) return void (i += m[0].length);
    fail(`unexpected ${show()}`);
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${show()} after the document`);
    return 'invalid document';
  } catch (err) {
    const at = (err as { at: number }).at;
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    return `line ${line}, column ${column}: ${(err as Error).message}`;
  }
}
