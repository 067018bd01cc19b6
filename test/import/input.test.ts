// Opening the input (src/import/input.ts): files, stdin and pipes, encodings,
// binary data refused early. The delimiter and header are in source.test.ts,
// the whole-file structure check in structure-check.test.ts, the header
// mapping in mapping.test.ts.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { checkText, RowSource } from '../../src/import/source.js';
import { openInput } from '../../src/import/input.js';
import { utf8Source } from '../../src/import/text.js';
import { tempDir, writeFile } from '../helpers/import-files.js';

describe('opening the input', () => {
  it('names a missing file and a directory', async () => {
    const dir = tempDir();
    await expect(openInput('nope.csv', dir, Readable.from([]), undefined)).rejects.toThrow('nope.csv: no such file');
    await expect(openInput('.', dir, Readable.from([]), undefined)).rejects.toThrow('is a directory');
  });
  it('refuses an Excel workbook and binary data before reading further', async () => {
    const dir = tempDir();
    writeFile(dir, 'book.xlsx', Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(100, 7)]));
    await expect(openInput('book.xlsx', dir, Readable.from([]), undefined)).rejects.toThrow(/ZIP archive/);
    writeFile(dir, 'garbage.csv', Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 7919) % 256)));
    await expect(openInput('garbage.csv', dir, Readable.from([]), undefined)).rejects.toThrow(/does not look like CSV text/);
  });
  it('strips a UTF-8 BOM and decodes UTF-16 with a BOM to UTF-8', async () => {
    const dir = tempDir();
    writeFile(dir, 'bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('email\na@x.io\n')]));
    const bom = await openInput('bom.csv', dir, Readable.from([]), undefined);
    expect(bom).toMatchObject({ encoding: 'utf8', bomBytes: 3, head: 'email\na@x.io\n' });
    writeFile(dir, 'utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\tname\r\né@x.io\tÉlodie\r\n', 'utf16le')]));
    const utf16 = await openInput('utf16.csv', dir, Readable.from([]), undefined);
    expect(utf16).toMatchObject({ encoding: 'utf16le', bomBytes: 2 });
    let text = '';
    for await (const chunk of utf8Source(utf16).stream) text += chunk;
    expect(text).toBe('email\tname\r\né@x.io\tÉlodie\r\n');
  });
  it('knows gzip by its first bytes; its head is at most the first 64 KiB it inflates to, however much more that would be', async () => {
    const dir = tempDir();
    writeFile(dir, 'bomb.bin', gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x61)));
    const bomb = await openInput('bomb.bin', dir, Readable.from([]), undefined);
    expect(bomb).toMatchObject({ compressed: true, encoding: 'utf8', bomBytes: 0 });
    expect(bomb.head.length).toBe(64 * 1024);
    // A BOM and a sep= line inside the stream are found as in a plain file; the text read skips both.
    writeFile(dir, 'sep.csv.gz', gzipSync(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('sep=;\r\nemail;name\r\na@x.io;A\r\n')])));
    const sep = await openInput('sep.csv.gz', dir, Readable.from([]), undefined);
    expect(sep).toMatchObject({ compressed: true, bomBytes: 3, sepDelimiter: ';', preambleLines: 1, preambleBytes: 7, head: 'email;name\r\na@x.io;A\r\n' });
    let text = '';
    for await (const chunk of utf8Source(sep).stream) text += chunk;
    expect(text).toBe('email;name\r\na@x.io;A\r\n');
    // On stdin, the head is learnt once the first 64 KiB of the compressed stream have arrived; the copy keeps it compressed.
    const lines = Array.from({ length: 4000 }, (_, i) => `${randomBytes(24).toString('hex')}@x.io,${randomBytes(12).toString('base64')}`);
    const big = gzipSync(`email,name\n${lines.join('\n')}\n`);
    expect(big.length).toBeGreaterThan(128 * 1024);
    const piped = await openInput('-', '/', Readable.from([big.subarray(0, 70_000), big.subarray(70_000)]), undefined);
    expect(piped).toMatchObject({ compressed: true, size: big.length, spooled: true });
    expect(piped.head.startsWith(`email,name\n${lines[0]}\n`)).toBe(true);
    let rows = 0;
    for await (const chunk of utf8Source(piped).stream) rows += String(chunk).split('\n').length - 1;
    expect(rows).toBe(4001);
    await piped.cleanup();
  });
  it('reads a sep= first line in any encoding, and names other compressions than gzip', async () => {
    const dir = tempDir();
    writeFile(dir, 'utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('SEP=|\nemail|name\né@x.io|É\n', 'utf16le')]));
    const utf16 = await openInput('utf16.csv', dir, Readable.from([]), undefined);
    expect(utf16).toMatchObject({ encoding: 'utf16le', sepDelimiter: '|', preambleLines: 1, head: 'email|name\né@x.io|É\n' });
    let text = '';
    for await (const chunk of utf8Source(utf16).stream) text += chunk;
    expect(text).toBe('email|name\né@x.io|É\n');
    // Not a sep= line: a quote cannot be the delimiter, and the line must end there.
    writeFile(dir, 'quote.csv', 'sep="\nemail\n');
    expect(await openInput('quote.csv', dir, Readable.from([]), undefined)).toMatchObject({ preambleLines: 0, preambleBytes: 0, head: expect.stringMatching(/^sep=/) });
    writeFile(dir, 'long.csv', 'sep=;;\nemail\n');
    expect(await openInput('long.csv', dir, Readable.from([]), undefined)).toMatchObject({ preambleLines: 0, preambleBytes: 0, head: expect.stringMatching(/^sep=/) });
    writeFile(dir, 'list.csv.xz', Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04]));
    await expect(openInput('list.csv.xz', dir, Readable.from([]), undefined)).rejects.toThrow('list.csv.xz is xz-compressed: only gzip is read');
  });
  it('copies stdin to a temporary file identified by the SHA-256 of all of it, removed by cleanup()', async () => {
    const input = await openInput('-', '/', Readable.from([Buffer.from('email\n'), Buffer.from('a@x.io\n')]), undefined);
    expect(input).toMatchObject({ name: 'stdin', fromStdin: true, size: 13, identity: { size: 13, hashed: 'all' } });
    expect(input.identity.sha256).toMatch(/^[0-9a-f]{64}$/);
    await input.cleanup();
    const { existsSync } = await import('node:fs');
    expect(existsSync(input.path)).toBe(false);
  });
});

describe('inputs that cannot seek: a FIFO, a process substitution, a device (issue 17.8)', () => {
  const writers: ChildProcess[] = [];
  const savedTmp = process.env.TMPDIR;
  afterEach(() => {
    for (const w of writers.splice(0)) w.kill('SIGKILL');
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  });
  /** A FIFO in a fresh directory, and a private TMPDIR where the copy must be made and removed. */
  function fifo(): { dir: string; path: string; tmp: string } {
    const dir = tempDir();
    const path = join(dir, 'list.fifo');
    execFileSync('mkfifo', [path]);
    const tmp = join(dir, 'tmp');
    execFileSync('mkdir', ['-m', '700', tmp]);
    process.env.TMPDIR = tmp;
    return { dir, path, tmp };
  }
  /** A shell writing into the FIFO (the script gets the FIFO as $1). */
  function writer(script: string, path: string): ChildProcess {
    const child = spawn('sh', ['-c', script, 'sh', path], { stdio: 'ignore' });
    writers.push(child);
    return child;
  }

  it('copies a FIFO to a private temporary file (0600 in a 0700 directory), named as given, identified by the SHA-256 of all of it', async () => {
    const { dir, tmp } = fifo();
    writeFile(dir, 'list.csv', 'email,name\na@x.io,Ada\nb@x.io,Bob\n');
    writer('cat "$(dirname "$1")/list.csv" > "$1"', join(dir, 'list.fifo'));
    const input = await openInput('list.fifo', dir, Readable.from([]), undefined);
    try {
      expect(input).toMatchObject({ name: 'list.fifo', spooled: true, fromStdin: false, size: 33, identity: { size: 33, hashed: 'all' }, head: 'email,name\na@x.io,Ada\nb@x.io,Bob\n' });
      expect(input.path.startsWith(tmp)).toBe(true);
      expect(statSync(input.path).mode & 0o777).toBe(0o600);
      expect(statSync(join(input.path, '..')).mode & 0o777).toBe(0o700);
      // Every later pass reads the copy: the structure check, then the parser.
      const shape = await checkText(input, undefined);
      const { rows, header } = await RowSource.open(input, shape);
      rows.close();
      expect(header).toEqual(['email', 'name']);
    } finally {
      await input.cleanup();
    }
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('refuses binary data from a pipe once its head has arrived, without copying the rest (cat /dev/zero > fifo), and removes the copy', async () => {
    const { dir, path, tmp } = fifo();
    writer('exec cat /dev/zero > "$1"', path);
    await expect(openInput('list.fifo', dir, Readable.from([]), undefined)).rejects.toThrow(/list\.fifo does not look like CSV text/);
    expect(readdirSync(tmp)).toEqual([]);
    await expect(openInput('/dev/zero', dir, Readable.from([]), undefined)).rejects.toThrow(/\/dev\/zero does not look like CSV text/);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('refuses binary data on stdin after its head, without waiting for the end', async () => {
    const endless = new Readable({ read() { this.push(Buffer.alloc(16 * 1024)); } });
    await expect(openInput('-', '/', endless, undefined)).rejects.toThrow(/stdin does not look like CSV text/);
  });

  it('an abort while a FIFO has no writer, or a writer that never closes it, ends the copy at once and removes it (CLI.md "signals")', async () => {
    const { dir, path, tmp } = fifo();
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    await expect(openInput('list.fifo', dir, Readable.from([]), undefined, stop.signal)).rejects.toThrow(/interrupted/);
    expect(readdirSync(tmp)).toEqual([]);

    writer('exec 3>"$1"; printf "email\\na@x.io\\n" >&3; exec sleep 60', path);
    const later = new AbortController();
    setTimeout(() => later.abort(), 300);
    await expect(openInput('list.fifo', dir, Readable.from([]), undefined, later.signal)).rejects.toThrow(/interrupted/);
    expect(readdirSync(tmp)).toEqual([]);

    const never = new Readable({ read() {} });
    const third = new AbortController();
    setTimeout(() => third.abort(), 100);
    await expect(openInput('-', dir, never, undefined, third.signal)).rejects.toThrow(/interrupted/);
    expect(readdirSync(tmp)).toEqual([]);
  }, 10_000);
});
