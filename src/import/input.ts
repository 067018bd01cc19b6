// The input of an import: a regular file is read where it is; anything else
// (stdin, a FIFO, `<(…)`, a device) is copied to a private temporary file
// first, so the text can be checked whole before the first request, read
// again, and identified for --resume (CLI.md "Import input"). The copy is
// private, capped, removed whatever happens, and interruptible.
import { createHash } from 'node:crypto';
import { close as closeFd, constants, createReadStream, fstat, open as openFd, read as readFd, rmSync, type Stats } from 'node:fs';
import { open, rm, stat, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { eventLoopStream } from '../core/bounded-read.js';
import { CliError, hinted, Interrupted, UsageError } from '../core/errors.js';
import { makeSpoolDir, sweepStaleSpools } from './spool-dir.js';
import { decoderLabel, gunzipHead, isGzip, type TextEncodingName, type TextInput } from './text.js';

/** The most a copy of a pipe may hold: `yes a@x.com,A | email …` would otherwise fill TMPDIR. Tests lower it. */
export const SPOOL_MAX_BYTES = 2 * 1024 ** 3;
export const spoolLimit = { maxBytes: SPOOL_MAX_BYTES };

/** Read up front: for delimiter sniffing, the journal's head hash and refusing binary data early. */
const HEAD_BYTES = 64 * 1024;

/** What binds a journal to its input (see journal.ts). */
export interface InputIdentity {
  size: number;
  /** Files only. */
  mtimeMs?: number;
  /** SHA-256 of the first 64 KiB (files) or of the whole copy (stdin, a pipe). */
  sha256: string;
  hashed: 'head' | 'all';
}

/** `path` is the file the pipeline reads (the copy, for a pipe); `name` is for messages. */
export interface ImportInput extends TextInput {
  fromStdin: boolean;
  /** `path` is a copy: there is no place beside the input for a journal. */
  spooled: boolean;
  size: number;
  identity: InputIdentity;
  /** The first bytes of the text (inflated, for gzip), decoded, without the BOM and the `sep=` line. */
  head: string;
  /** The delimiter a spreadsheet's first line `sep=;` names: that line is not a row. */
  sepDelimiter?: string;
  /** Lines before the text the parser reads (a `sep=` line), added so messages name the file's own lines. */
  preambleLines: number;
  /** Device and inode of the file read (fd 0's for `-`): an output that is the same file, by any path, is refused. */
  device?: FileId;
  cleanup(): Promise<void>;
}

export interface FileId {
  dev: number;
  ino: number;
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

// The file descriptor itself, not a FileHandle: a FIFO's or a terminal's is handed to a stream, which closes it (a FileHandle would close it again when collected).
const openAsync = promisify(openFd);
const fstatAsync = promisify(fstat);
const readAsync = promisify(readFd);
const closeAsync = promisify(closeFd);

/** Whether `file` will be copied, decided before anything is read: such an input has no default journal. */
export async function isCopied(file: string, cwd: string): Promise<boolean> {
  if (file === '-') return true;
  const info = await stat(resolve(cwd, file)).catch(() => undefined);
  return info !== undefined && !info.isFile() && !info.isDirectory();
}

/** `signal` (Ctrl-C) ends the copy of a pipe at once: removed, and Interrupted thrown. */
export async function openInput(file: string, cwd: string, stdin: Readable, encodingFlag: TextEncodingName | undefined, signal?: AbortSignal): Promise<ImportInput> {
  if (file === '-') {
    // What fd 0 is (a file redirected with `<`, a pipe): an in-process stream has none.
    const fd = (stdin as { fd?: unknown }).fd;
    const info = typeof fd === 'number' ? await fstatAsync(fd).catch(() => undefined) : undefined;
    return spool(stdin, 'stdin', true, encodingFlag, signal, info && { dev: info.dev, ino: info.ino });
  }
  const path = resolve(cwd, file);
  const cannotRead = (err: unknown) => new UsageError(`${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  let fd: number;
  try {
    // O_NONBLOCK: a blocked open of a FIFO would hold a thread no interrupt can free.
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
      device: { dev: info.dev, ino: info.ino },
      ...(await textHead(file, headBytes, encodingFlag)),
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
  const device = { dev: info.dev, ino: info.ino };
  if (pipe) return spool(pipe, file, false, encodingFlag, signal, device);
  // Another device (/dev/zero): read as a file, from where it stands.
  await closeAsync(fd).catch(() => undefined);
  return spool(createReadStream(path), file, false, encodingFlag, signal, device);
}

/** Copies and hashes `source`; binary data is refused as soon as the head has arrived (`cat /dev/zero`). */
async function spool(
  source: Readable,
  name: string,
  fromStdin: boolean,
  encodingFlag: TextEncodingName | undefined,
  signal: AbortSignal | undefined,
  device: FileId | undefined,
): Promise<ImportInput> {
  if (signal?.aborted) {
    source.destroy();
    throw new Interrupted();
  }
  const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  const cannotCopy = (err: unknown) => new UsageError(`${name}: cannot copy it to a temporary file in ${tmpdir()} (${code(err)}); set TMPDIR to a directory with room`);
  let dir: string;
  try {
    await sweepStaleSpools();
    dir = await makeSpoolDir();
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
  let head: Awaited<ReturnType<typeof textHead>> | undefined;
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
        if (size + chunk.length > spoolLimit.maxBytes) throw tooLong(name, spoolLimit.maxBytes);
        hash.update(chunk);
        size += chunk.length;
        if (head === undefined) {
          headChunks.push(chunk);
          headLength += chunk.length;
          if (headLength >= HEAD_BYTES) {
            head = await textHead(name, Buffer.concat(headChunks).subarray(0, HEAD_BYTES), encodingFlag);
            headChunks.length = 0;
          }
        }
        await write(chunk);
      }
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new UsageError(`${name}: cannot read it (${code(err)})`);
    }
    head ??= await textHead(name, Buffer.concat(headChunks), encodingFlag);
    out = undefined;
    await file.close().catch((err: unknown) => {
      throw cannotCopy(err);
    });
  })();
  try {
    await new Promise<void>((resolvePromise, reject) => {
      const onAbort = () => reject(new Interrupted());
      // A signal that came while the copy's folder was made has fired already.
      if (signal?.aborted) onAbort();
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
  return { name, path, fromStdin, spooled: true, size, identity: { size, sha256: hash.digest('hex'), hashed: 'all' }, ...(device && { device }), ...head!, cleanup };
}

function tooLong(name: string, cap: number): CliError {
  const figure = cap % 1024 ** 3 === 0 ? `${cap / 1024 ** 3} GiB` : cap % 1024 ** 2 === 0 ? `${cap / 1024 ** 2} MiB` : `${cap} bytes`;
  return hinted(
    new UsageError(`${name}: more than ${figure} came through the pipe, the most its copy in ${tmpdir()} may hold; nothing was sent`),
    'Save the data to a file first and import that file: a file is read where it is, without a copy.',
  );
}

/** What the first bytes say about the text (of a gzip file, the first bytes it inflates to). */
async function textHead(name: string, bytes: Buffer, encodingFlag: TextEncodingName | undefined) {
  if (!isGzip(bytes)) return { compressed: false, ...readHead(name, bytes, encodingFlag) };
  let text: Buffer;
  try {
    text = await gunzipHead(name, bytes, HEAD_BYTES);
  } catch (err) {
    if (err instanceof UsageError) err.message += '; nothing was sent';
    throw err;
  }
  return { compressed: true, ...readHead(name, text, encodingFlag) };
}

/** Excel's first line naming the delimiter: `sep=;` (any case), then a line break. */
const SEP_LINE = /^sep=([^"\r\n])(?:\r\n|\n|\r)/i;

/** The encoding, the BOM's length, a `sep=` line and the decoded head; plainly non-text data is refused. */
function readHead(name: string, bytes: Buffer, encodingFlag: TextEncodingName | undefined) {
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
  const sep = SEP_LINE.exec(head);
  if (!sep) return { encoding, bomBytes, head, preambleBytes: 0, preambleLines: 0 };
  return { encoding, bomBytes, head: head.slice(sep[0].length), sepDelimiter: sep[1]!, preambleBytes: Buffer.byteLength(sep[0]), preambleLines: 1 };
}

/** Plainly not CSV text: refused before anything else. */
function refuseNonText(name: string, bytes: Buffer, encoding: TextEncodingName): void {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    throw hinted(
      new UsageError(`${name} is a ZIP archive (an Excel .xlsx workbook?), not CSV text`),
      'Save the sheet as "CSV UTF-8 (Comma delimited)" and import that file.',
    );
  }
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') throw new UsageError(`${name} is a PDF document, not CSV text`);
  const packed = otherCompression(bytes);
  if (packed) throw hinted(new UsageError(`${name} is ${packed}-compressed: only gzip is read`), `Decompress it first, or compress it with gzip; nothing was sent.`);
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

/** Compressions other than gzip, by their magic numbers: named, rather than called binary data. */
function otherCompression(bytes: Buffer): string | undefined {
  const starts = (...magic: number[]) => magic.every((b, i) => bytes[i] === b);
  if (starts(0x42, 0x5a, 0x68) && bytes[3]! >= 0x31 && bytes[3]! <= 0x39) return 'bzip2';
  if (starts(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)) return 'xz';
  if (starts(0x28, 0xb5, 0x2f, 0xfd)) return 'zstd';
  return undefined;
}
