// CLI.md "JSON input": a flag's JSON as text, @file or @- (stdin), and where
// a bad document first goes wrong.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { describeJsonError, MAX_JSON_INPUT_BYTES, readJsonArgument, readText } from '../../src/core/json-input.js';

const noStdin = () => Readable.from([]);
const cwd = mkdtempSync(join(tmpdir(), 'email-json-input-'));
writeFileSync(join(cwd, 'rules.json'), '\uFEFF{"Rules": [1]}');
writeFileSync(join(cwd, 'bad.json'), '{\n  "a": 1,\n  "b": }\n');

async function refusal(value: string, stdin = noStdin()): Promise<string> {
  const error = await readJsonArgument(value, '--rules', stdin, cwd).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
}

describe('readJsonArgument', () => {
  it('parses the value itself', async () => {
    expect(await readJsonArgument('{"a":[1,"x"]}', '--rules', noStdin(), cwd)).toEqual({ a: [1, 'x'] });
  });

  it('reads @file relative to the working directory, a byte-order mark dropped', async () => {
    expect(await readJsonArgument('@rules.json', '--rules', noStdin(), cwd)).toEqual({ Rules: [1] });
  });

  it('reads @- from stdin, in chunks of any kind', async () => {
    expect(await readJsonArgument('@-', '--rules', Readable.from([Buffer.from('[1,'), '2]']), cwd)).toEqual([1, 2]);
  });

  it('names the flag and the position of the first problem', async () => {
    expect(await refusal('{"a": tru}')).toBe('--rules is not valid JSON (line 1, column 7: unexpected "t")');
    expect(await refusal('@bad.json')).toBe('--rules: bad.json is not valid JSON (line 3, column 8: unexpected "}")');
    expect(await refusal('@-', Readable.from(['[1']))).toBe('--rules: stdin is not valid JSON (line 1, column 3: expected "," or "]", found end of input)');
  });

  it('says when a file cannot be read', async () => {
    expect(await refusal('@missing.json')).toBe('--rules: cannot read missing.json: no such file');
    expect(await refusal('@.')).toBe('--rules: cannot read .: it is a directory');
  });

  it('refuses a document over its bound from stdin', async () => {
    const error = await readJsonArgument('@-', '--rules', Readable.from([Buffer.alloc(MAX_JSON_INPUT_BYTES + 1, 0x20)]), cwd).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/--rules: stdin/);
  });
});

describe('describeJsonError', () => {
  it.each([
    ['{a: 1}', 'line 1, column 2: expected a property name in double quotes, found "a"'],
    ['{"a" 1}', 'line 1, column 6: expected ":" after a property name, found "1"'],
    ['{"a": 1,}', 'line 1, column 9: expected a property name in double quotes, found "}"'],
    ['{"a": 1 "b": 2}', 'line 1, column 9: expected "," or "}", found """'],
    ['"abc', 'line 1, column 5: unterminated string'],
    ['"a\tb"', 'line 1, column 3: control character in a string'],
    ['[1] x', 'line 1, column 5: unexpected "x" after the document'],
    ['', 'line 1, column 1: unexpected end of input'],
    ['[\n1,\n  nul]', 'line 3, column 3: unexpected "n"'],
  ])('%j → %s', (text, words) => {
    expect(describeJsonError(text)).toBe(words);
  });

  it('names line and column of the first error', () => {
    expect(describeJsonError('{"a": 1,\n  "b" 2}')).toBe('line 2, column 7: expected ":" after a property name, found "2"');
    expect(describeJsonError('[1, 2')).toBe('line 1, column 6: expected "," or "]", found end of input');
    expect(describeJsonError("{'a': 1}")).toBe('line 1, column 2: expected a property name in double quotes, found "\'"');
    expect(describeJsonError('{} x')).toBe('line 1, column 4: unexpected "x" after the document');
  });

  it('finds nothing wrong in a valid document', () => {
    expect(describeJsonError('{"a": [1, -2.5e3, true, false, null, "x\\"y"]}')).toBe('invalid document');
  });
});

describe('readText', () => {
  const bound = { maxBytes: 16, limit: '16 bytes', name: '--rules: stdin' };

  it('joins a stream of buffers and strings as UTF-8, a character split across chunks included', async () => {
    const euro = Buffer.from('€');
    expect(await readText(Readable.from([euro.subarray(0, 1), euro.subarray(1), 'x']), bound)).toBe('€x');
  });

  it('refuses more than its bound', async () => {
    await expect(readText(Readable.from(['x'.repeat(17)]), bound)).rejects.toThrow(/--rules: stdin/);
  });
});
