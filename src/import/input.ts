// The input of an import: a file, or standard input copied to a temporary
// file first. Copying stdin costs one write of the data, and buys what a
// pipe cannot give: the whole file is checked before the first request (so a
// broken file sends nothing, CLI.md exit 2), and `--resume` can tell whether
// the same data was piped again (the copy's SHA-256 is its identity).
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UsageError } from '../core/errors.js';

/** Bytes read up front: enough for delimiter sniffing and the journal's head hash. */
const HEAD_BYTES = 64 * 1024;

type TextEncodingName = 'utf8' | 'utf16le' | 'utf16be' | 'windows-1252' | 'latin1';

/** What binds a journal to its input (see journal.ts). */
export interface InputIdentity {
  size: number;
  /** Files only: the modification time. */
  mtimeMs?: number;
  /** SHA-256 of the first 64 KiB (files) or of the whole copy (stdin). */
  sha256: string;
  /** What was hashed. */
  hashed: 'head' | 'all';
}

export interface ImportInput {
  /** For messages: the path as given, or "stdin". */
  name: string;
  /** The file the pipeline reads (the temporary copy for stdin). */
  path: string;
  fromStdin: boolean;
  size: number;
  identity: InputIdentity;
  encoding: TextEncodingName;
  /** Length of the byte-order mark at the start of the file (skipped). */
  bomBytes: number;
  /** The first bytes of the file, decoded, without the BOM. */
  head: string;
  /** Removes the temporary copy of stdin. */
  cleanup(): Promise<void>;
}

const ENCODINGS: Record<string, TextEncodingName> = {
  utf8: 'utf8',
  'utf-8': 'utf8',
  utf16le: 'utf16le',
  'utf-16le': 'utf16le',
  utf16be: 'utf16be',
  'utf-16be': 'utf16be',
  latin1: 'latin1',
  'iso-8859-1': 'latin1',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
};

export function parseEncoding(value: string | undefined): TextEncodingName | undefined {
  if (value === undefined) return undefined;
  const name = ENCODINGS[value.trim().toLowerCase()];
  if (!name) throw new UsageError(`--encoding must be one of utf8, utf16le, utf16be, windows-1252, latin1 (got "${value}")`);
  return name;
}

/** The TextDecoder label of an encoding (latin1 is decoded as windows-1252, as WHATWG defines it). */
function decoderLabel(encoding: TextEncodingName): string {
  switch (encoding) {
    case 'utf8':
      return 'utf-8';
    case 'utf16le':
      return 'utf-16le';
    case 'utf16be':
      return 'utf-16be';
    default:
      return 'windows-1252';
  }
}

export async function openInput(file: string, cwd: string, stdin: Readable, encodingFlag: TextEncodingName | undefined): Promise<ImportInput> {
  if (file === '-') return spoolStdin(stdin, encodingFlag);
  const path = resolve(cwd, file);
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${file}: no such file` : `${file}: cannot read it (${code ?? (err as Error).message})`);
  }
  if (info.isDirectory()) throw new UsageError(`${file} is a directory, not a CSV file`);
  const headBytes = await readHead(path, file);
  const headHash = createHash('sha256').update(headBytes).digest('hex');
  return describe({
    name: file,
    path,
    fromStdin: false,
    size: info.size,
    identity: { size: info.size, mtimeMs: Math.trunc(info.mtimeMs), sha256: headHash, hashed: 'head' },
    headBytes,
    encodingFlag,
    cleanup: async () => undefined,
  });
}

async function readHead(path: string, name: string): Promise<Buffer> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new UsageError(`${name}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function spoolStdin(stdin: Readable, encodingFlag: TextEncodingName | undefined): Promise<ImportInput> {
  const dir = await mkdtemp(join(tmpdir(), 'email-import-'));
  const path = join(dir, 'stdin.csv');
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const hash = createHash('sha256');
  let size = 0;
  try {
    await pipeline(
      stdin,
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk);
          size += chunk.length;
          callback(null, chunk);
        },
      }),
      createWriteStream(path),
    );
    return await describe({
      name: 'stdin',
      path,
      fromStdin: true,
      size,
      identity: { size, sha256: hash.digest('hex'), hashed: 'all' },
      headBytes: await readHead(path, 'stdin'),
      encodingFlag,
      cleanup,
    });
  } catch (err) {
    await cleanup();
    throw err;
  }
}

interface Described {
  name: string;
  path: string;
  fromStdin: boolean;
  size: number;
  identity: InputIdentity;
  headBytes: Buffer;
  encodingFlag: TextEncodingName | undefined;
  cleanup: () => Promise<void>;
}

async function describe(d: Described): Promise<ImportInput> {
  const bytes = d.headBytes;
  let encoding: TextEncodingName = d.encodingFlag ?? 'utf8';
  let bomBytes = 0;
  // A byte-order mark says what the file is, whatever --encoding says.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    encoding = 'utf8';
    bomBytes = 3;
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    encoding = 'utf16le';
    bomBytes = 2;
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    encoding = 'utf16be';
    bomBytes = 2;
  }
  if (bomBytes === 0) refuseNonText(d.name, bytes, encoding);
  // A head cut in the middle of a character decodes with one replacement character at the end: harmless for sniffing.
  const head = new TextDecoder(decoderLabel(encoding)).decode(bytes.subarray(bomBytes));
  return { name: d.name, path: d.path, fromStdin: d.fromStdin, size: d.size, identity: d.identity, encoding, bomBytes, head, cleanup: d.cleanup };
}

/** Files that are plainly not CSV text are refused before anything else (CLI.md: exit 2, nothing sent). */
function refuseNonText(name: string, bytes: Buffer, encoding: TextEncodingName): void {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    throw hinted(
      new UsageError(`${name} is a ZIP archive (an Excel .xlsx workbook?), not CSV text`),
      'Save the sheet as "CSV UTF-8 (Comma delimited)" and import that file.',
    );
  }
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') throw new UsageError(`${name} is a PDF document, not CSV text`);
  if (encoding === 'utf16le' || encoding === 'utf16be') return;
  const sample = bytes.subarray(0, 4096);
  let zeros = 0;
  let oddZeros = 0;
  let controls = 0;
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i]!;
    if (b === 0) {
      zeros++;
      if (i % 2 === 1) oddZeros++;
    } else if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) {
      controls++;
    }
  }
  if (zeros > 0 && zeros >= sample.length / 4 && oddZeros >= zeros * 0.9) {
    throw hinted(new UsageError(`${name} looks like UTF-16 text without a byte-order mark`), 'Pass --encoding utf16le, or save the file as UTF-8.');
  }
  if (zeros > 0 || controls > sample.length / 100) {
    throw new UsageError(`${name} does not look like CSV text: it holds binary data (${zeros ? 'NUL bytes' : 'control characters'} in its first ${sample.length} bytes)`);
  }
}

function hinted(error: UsageError, hint: string): UsageError {
  error.hint = hint;
  return error;
}

interface Utf8Source {
  /** UTF-8 bytes of the text after the BOM. */
  stream: Readable;
  /** Bytes of the file read so far (for progress). */
  bytesRead(): number;
}

/**
 * The input's text as UTF-8 bytes, after the BOM: the file itself, or (for
 * UTF-16 and the Windows code pages) the file decoded chunk by chunk, so the
 * parser and the structure check only ever see UTF-8.
 */
export function utf8Source(input: ImportInput, highWaterMark = 64 * 1024): Utf8Source {
  const file = createReadStream(input.path, { start: input.bomBytes, highWaterMark });
  const bytesRead = () => input.bomBytes + file.bytesRead;
  if (input.encoding === 'utf8') return { stream: file, bytesRead };
  const decoder = new TextDecoder(decoderLabel(input.encoding));
  const recode = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8'));
    },
    flush(callback) {
      const rest = decoder.decode();
      callback(null, rest ? Buffer.from(rest, 'utf8') : undefined);
    },
  });
  file.on('error', (err) => recode.destroy(err));
  return { stream: file.pipe(recode), bytesRead };
}

/**
 * The input's UTF-8 text in chunks for a single pass that looks at each chunk
 * and lets it go (the structure check). A UTF-8 file is read into one reused
 * buffer: a stream would allocate a new one for each chunk, and a large file's
 * worth of them waits for V8 to collect (external memory may grow by tens of
 * megabytes before it does). Each chunk is valid only until the next one.
 */
export async function* scanChunks(input: ImportInput, chunkBytes = 1 << 20): AsyncGenerator<Buffer> {
  if (input.encoding !== 'utf8') {
    yield* utf8Source(input, chunkBytes).stream as AsyncIterable<Buffer>;
    return;
  }
  const handle = await open(input.path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    let position = input.bomBytes;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}
