// Whole-file reads with a cap and a signal (src/core/bounded-read.ts); the
// FIFO and /dev/zero cases run through the real binary in test/e2e/file-inputs.test.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readFileBounded, readNamedInput, readStreamBounded, TooLargeInputError } from '../../src/core/bounded-read.js';
import { Interrupted } from '../../src/core/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'email-bounded-read-'));
const options = { maxBytes: 1000, limit: '1000 bytes', name: 'the file' };

describe('readFileBounded', () => {
  it('reads a regular file of exactly the cap, and says it is regular', async () => {
    writeFileSync(join(dir, 'full'), 'x'.repeat(1000));
    expect(await readNamedInput(join(dir, 'full'), options)).toEqual({ data: Buffer.from('x'.repeat(1000)), regularFile: true });
  });

  it('refuses a regular file of one byte more, naming it and the cap', async () => {
    writeFileSync(join(dir, 'over'), 'x'.repeat(1001));
    await expect(readFileBounded(join(dir, 'over'), options)).rejects.toThrow(new TooLargeInputError('the file', '1000 bytes'));
    await expect(readFileBounded(join(dir, 'over'), options)).rejects.toThrow('the file is larger than 1000 bytes');
  });

  it('leaves file system errors to the caller, a directory as EISDIR', async () => {
    await expect(readFileBounded(join(dir, 'missing'), options)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readFileBounded(dir, options)).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('reads nothing once the signal has fired', async () => {
    writeFileSync(join(dir, 'small'), '{}');
    await expect(readFileBounded(join(dir, 'small'), { ...options, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(Interrupted);
  });
});

describe('readStreamBounded', () => {
  it('reads a stream to its end within the cap', async () => {
    expect((await readStreamBounded(Readable.from([Buffer.from('ab'), Buffer.from('c')]), options)).toString()).toBe('abc');
  });

  it('refuses a stream past the cap and destroys it', async () => {
    const stream = new PassThrough();
    const reading = readStreamBounded(stream, options);
    stream.write(Buffer.alloc(600));
    stream.write(Buffer.alloc(600));
    await expect(reading).rejects.toBeInstanceOf(TooLargeInputError);
    expect(stream.destroyed).toBe(true);
  });

  it('ends a wait for a stream that never ends when the signal fires', async () => {
    const controller = new AbortController();
    const stream = new PassThrough();
    const reading = readStreamBounded(stream, { ...options, signal: controller.signal });
    stream.write('{');
    controller.abort();
    await expect(reading).rejects.toBeInstanceOf(Interrupted);
    expect(stream.destroyed).toBe(true);
  });
});
