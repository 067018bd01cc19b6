// The input of an import: a regular file, read where it is, or anything else
// — standard input, a FIFO, a process substitution `<(…)` (a /dev/fd pipe), a
// device — copied to a private temporary file first (CLI.md "Import input":
// nothing requires seeking). Copying costs one write of the data, and buys
// what a pipe cannot give: the whole text is checked before the first request
// (so a broken file sends nothing, CLI.md exit 2), the parser and the failures
// file read it again, and `--resume` can tell whether the same data was piped
// again (the copy's SHA-256 is its identity).
//
// The copy is bounded in harm: it is created 0600 in a 0700 directory of its
// own, removed at the end whatever happens (even by process.exit), binary
// data is refused as soon as the first 64 KiB have arrived (`cat /dev/zero`
// is not copied forever), and an interrupt ends the copy at once (CLI.md
// "signals"): a FIFO is opened without waiting for its writer and read
// through the event loop, so no thread is left waiting on it.
import { createHash } from 'node:crypto';
import { close as closeFd, constants, createReadStream, fstat, open as openFd, read as readFd, rmSync, type Stats } from 'node:fs';
import { mkdtemp, open, rm, stat, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { promisify } from 'node:util';
import { eventLoopStream } from '../core/bounded-read.js';
import { CliError, hinted, Interrupted, UsageError } from '../core/errors.js';

/** Bytes read up front: enough for delimiter sniffing and the journal's head hash; binary data is refused once they have arrived. */
const HEAD_BYTES = 64 * 1024;

type TextEncodingName = 'utf8' | 'utf16le' | 'utf16be' | 'windows-1252' | 'latin1';

/** What binds a journal to its input (see journal.ts). */
export interface InputIdentity {
  size: number;
  /** Files only: the modification time. */
  mtimeMs?: number;
  /** SHA-256 of the first 64 KiB (files) or of the whole copy (stdin, a pipe). */
  sha256: string;
  /** What was hashed. */
  hashed: 'head' | 'all';
}

export interface ImportInput {
  /** For messages: the path as given, or "stdin". */
  name: string;
  /** The file the pipeline reads (the temporary copy for stdin or a pipe). */
  path: string;
  /** The input is `-`. */
  fromStdin: boolean;
  /** The input was copied (stdin, a FIFO, `<(…)`, a device): `path` is the copy, and there is no place beside the input for a journal. */
  spooled: boolean;
  size: number;
  identity: InputIdentity;
  encoding: TextEncodingName;
  /** Length of the byte-order mark at the start of the file (skipped). */
  bomBytes: number;
  /** The first bytes of the file, decoded, without the BOM. */
  head: string;
  /** Removes the temporary copy, if any. */
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

// The file descriptor itself, not a FileHandle: a FIFO's or a terminal's is handed to a stream, which closes it (a FileHandle would close it again when collected).
const openAsync = promisify(openFd);
const fstatAsync = promisify(fstat);
const readAsync = promisify(readFd);
const closeAsync = promisify(closeFd);

/**
 * Whether `file` will be copied rather than read where it is (`-`, a FIFO,
 * `<(…)`, a device), decided before anything is read: such an input has no
 * default journal, so `--resume` needs `--journal` (import-run.ts).
 */
export async function isCopied(file: string, cwd: string): Promise<boolean> {
  if (file === '-') return true;
  const info = await stat(resolve(cwd, file)).catch(() => undefined);
  return info !== undefined && !info.isFile() && !info.isDirectory();
}

/**
 * Opens the input. `signal` (the command's Ctrl-C) ends the copy of a pipe at
 * once: the copy is removed and Interrupted is thrown (exit 130).
 */
export async function openInput(file: string, cwd: string, stdin: Readable, encodingFlag: TextEncodingName | undefined, signal?: AbortSignal): Promise<ImportInput> {
  if (file === '-') return spool(stdin, 'stdin', true, encodingFlag, signal);
  const path = resolve(cwd, file);
  const cannotRead = (err: unknown) => new UsageError(`${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO is opened at once, not when its writer comes (a
    // blocked open would hold a thread no interrupt can free); a regular file ignores it.
    fd = await openAsync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${file}: no such file`);
    if (code === 'EISDIR') throw new UsageError(`${file} is a directory, not a CSV file`);
    throw cannotRead(err);
  }
  let info: Stats;
  try {
    info = await fstatAsync(fd);
  } catch (err) {
    await closeAsync(fd).catch(() => undefined);
    throw cannotRead(err);
  }
  if (info.isFile()) {
    let headBytes: Buffer;
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await readAsync(fd, buffer, 0, HEAD_BYTES, 0);
      headBytes = buffer.subarray(0, bytesRead);
    } catch (err) {
      throw cannotRead(err);
    } finally {
      await closeAsync(fd).catch(() => undefined);
    }
    const headHash = createHash('sha256').update(headBytes).digest('hex');
    return {
      name: file,
      path,
      fromStdin: false,
      spooled: false,
      size: info.size,
      identity: { size: info.size, mtimeMs: Math.trunc(info.mtimeMs), sha256: headHash, hashed: 'head' },
      ...readHead(file, headBytes, encodingFlag),
      cleanup: async () => undefined,
    };
  }
  if (info.isDirectory()) {
    await closeAsync(fd).catch(() => undefined);
    throw new UsageError(`${file} is a directory, not a CSV file`);
  }
  // A FIFO, a socket, a terminal: read through the event loop (src/core/bounded-read.ts), so that waiting for data holds no thread.
  let pipe: Readable | undefined;
  try {
    pipe = eventLoopStream(fd, info);
  } catch (err) {
    await closeAsync(fd).catch(() => undefined);
    throw cannotRead(err);
  }
  if (pipe) return spool(pipe, file, false, encodingFlag, signal);
  // Another device (/dev/zero): read as a file, from where it stands.
  await closeAsync(fd).catch(() => undefined);
  return spool(createReadStream(path), file, false, encodingFlag, signal);
}

/**
 * Copies `source` to a private temporary file, hashing it on the way; the
 * head is checked as soon as it has arrived, so binary data is refused
 * without being copied further.
 */
async function spool(source: Readable, name: string, fromStdin: boolean, encodingFlag: TextEncodingName | undefined, signal: AbortSignal | undefined): Promise<ImportInput> {
  if (signal?.aborted) {
    source.destroy();
    throw new Interrupted();
  }
  const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  const cannotCopy = (err: unknown) => new UsageError(`${name}: cannot copy it to a temporary file in ${tmpdir()} (${code(err)}); set TMPDIR to a directory with room`);
  let dir: string;
  try {
    // mkdtemp creates the directory 0700.
    dir = await mkdtemp(join(tmpdir(), 'email-import-'));
  } catch (err) {
    source.destroy();
    throw cannotCopy(err);
  }
  const path = join(dir, fromStdin ? 'stdin.csv' : 'input.csv');
  // Whatever ends the process (a second Ctrl-C exits at once), the copy goes with it.
  const removeNow = () => rmSync(dir, { recursive: true, force: true });
  process.on('exit', removeNow);
  let removed: Promise<void> | undefined;
  const cleanup = () =>
    (removed ??= rm(dir, { recursive: true, force: true }).finally(() => {
      process.off('exit', removeNow);
    }));

  const hash = createHash('sha256');
  let size = 0;
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let head: ReturnType<typeof readHead> | undefined;
  let out: FileHandle | undefined;
  const copy = (async () => {
    try {
      out = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
    } catch (err) {
      throw cannotCopy(err);
    }
    const file = out;
    const write = async (chunk: Buffer) => {
      try {
        for (let at = 0; at < chunk.length; ) at += (await file.write(chunk, at)).bytesWritten;
      } catch (err) {
        throw cannotCopy(err);
      }
    };
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        hash.update(chunk);
        size += chunk.length;
        if (head === undefined) {
          headChunks.push(chunk);
          headLength += chunk.length;
          if (headLength >= HEAD_BYTES) {
            head = readHead(name, Buffer.concat(headChunks).subarray(0, HEAD_BYTES), encodingFlag);
            headChunks.length = 0;
          }
        }
        await write(chunk);
      }
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new UsageError(`${name}: cannot read it (${code(err)})`);
    }
    head ??= readHead(name, Buffer.concat(headChunks), encodingFlag);
    out = undefined;
    await file.close().catch((err: unknown) => {
      throw cannotCopy(err);
    });
  })();
  try {
    await new Promise<void>((resolvePromise, reject) => {
      const onAbort = () => reject(new Interrupted());
      signal?.addEventListener('abort', onAbort, { once: true });
      copy.then(resolvePromise, reject).finally(() => signal?.removeEventListener('abort', onAbort));
    });
  } catch (err) {
    // The copy may still be waiting on a read or a write: it ends on its own once the source and the file are closed.
    copy.catch(() => undefined);
    source.destroy();
    await out?.close().catch(() => undefined);
    await cleanup();
    throw err;
  }
  return { name, path, fromStdin, spooled: true, size, identity: { size, sha256: hash.digest('hex'), hashed: 'all' }, ...head!, cleanup };
}

/** The encoding (a byte-order mark wins over --encoding), the BOM's length and the decoded head; plainly non-text data is refused. */
function readHead(name: string, bytes: Buffer, encodingFlag: TextEncodingName | undefined): { encoding: TextEncodingName; bomBytes: number; head: string } {
  let encoding: TextEncodingName = encodingFlag ?? 'utf8';
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
  if (bomBytes === 0) refuseNonText(name, bytes, encoding);
  // A head cut in the middle of a character decodes with one replacement character at the end: harmless for sniffing.
  const head = new TextDecoder(decoderLabel(encoding)).decode(bytes.subarray(bomBytes));
  return { encoding, bomBytes, head };
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
