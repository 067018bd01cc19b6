// The input's text as the parser and the structure check read it: UTF-8
// bytes, after the byte-order mark and Excel's `sep=` line, whatever the file
// is — UTF-8 read where it is, UTF-16 or a Windows code page decoded chunk by
// chunk, gzip inflated as it is read (zlib, streamed: what is in memory is a
// chunk, however large the text inflates). Every pass over the input (the
// structure check, the parser, the failures file's second read) reads it
// again from the file this way; nothing of it is kept.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { constants as zlib, createGunzip } from 'node:zlib';
import { UsageError } from '../core/errors.js';

export type TextEncodingName = 'utf8' | 'utf16le' | 'utf16be' | 'windows-1252' | 'latin1';

/** What reading the text needs to know of the input (input.ts ImportInput). */
export interface TextInput {
  name: string;
  path: string;
  encoding: TextEncodingName;
  /** The file is gzip: its bytes are inflated first, and the lengths below are of the inflated bytes. */
  compressed: boolean;
  /** Length of the byte-order mark at the start of the text (skipped). */
  bomBytes: number;
  /** UTF-8 bytes of a `sep=` first line after the BOM (skipped: not a row). */
  preambleBytes: number;
}

/** The TextDecoder label of an encoding (latin1 is decoded as windows-1252, as WHATWG defines it). */
export function decoderLabel(encoding: TextEncodingName): string {
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

/** gzip's magic number (RFC 1952): how a compressed input is known, whatever its name. */
export function isGzip(bytes: Buffer): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** A stream that zlib refused, as one line naming the file. */
export function gzipError(name: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  const what = code === 'Z_BUF_ERROR' ? 'truncated' : 'corrupt';
  return new UsageError(`${name}: ${what} gzip data (${(err as Error).message})`);
}

/**
 * The first `max` inflated bytes of a gzip stream's first bytes (a file's
 * head, or the first bytes of a pipe). The compressed bytes may stop
 * anywhere: they are flushed, not finished, so a cut stream is no error. At
 * most `max` bytes and one of zlib's chunks are held, whatever they inflate to.
 */
export function gunzipHead(name: string, compressed: Buffer, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip({ finishFlush: zlib.Z_SYNC_FLUSH });
    const chunks: Buffer[] = [];
    let length = 0;
    const done = () => resolve(Buffer.concat(chunks).subarray(0, max));
    gunzip.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= max) {
        gunzip.destroy();
        done();
      }
    });
    gunzip.once('end', done);
    gunzip.once('error', (err) => reject(gzipError(name, err)));
    gunzip.end(compressed);
  });
}

interface Utf8Source {
  /** UTF-8 bytes of the text after the BOM and the `sep=` line. */
  stream: Readable;
  /** Bytes of the file read so far (for progress: compressed bytes of a gzip file, as its size is). */
  bytesRead(): number;
}

/**
 * The input's text as UTF-8 bytes: the file itself (UTF-8, not compressed,
 * read from after the BOM and the `sep=` line), or the file inflated and
 * decoded chunk by chunk, so the parser and the structure check only ever see UTF-8.
 */
export function utf8Source(input: TextInput, highWaterMark = 64 * 1024): Utf8Source {
  const plain = !input.compressed && input.encoding === 'utf8';
  const start = input.compressed ? 0 : input.bomBytes + (plain ? input.preambleBytes : 0);
  const file = createReadStream(input.path, { start, highWaterMark });
  const bytesRead = () => start + file.bytesRead;
  if (plain) return { stream: file, bytesRead };
  const stages: Readable[] = [file];
  // After the inflating stage comes another (the BOM's skip, even of nothing): zlib's errors reach the reader as the last stage's, in words naming the file.
  if (input.compressed) stages.push(createGunzip({ chunkSize: highWaterMark }), skip(input.bomBytes));
  if (input.encoding !== 'utf8') stages.push(recode(input.encoding));
  if (input.preambleBytes) stages.push(skip(input.preambleBytes));
  const name = input.name;
  return { stream: chain(stages, (err) => (/^Z_/.test(String((err as NodeJS.ErrnoException).code)) ? gzipError(name, err) : err)), bytesRead };
}

/**
 * The input's UTF-8 text in chunks for a single pass that looks at each chunk
 * and lets it go (the structure check). A plain UTF-8 file is read into one
 * reused buffer: a stream would allocate a new one for each chunk, and a large
 * file's worth of them waits for V8 to collect (external memory may grow by
 * tens of megabytes before it does). Each chunk is valid only until the next one.
 */
export async function* scanChunks(input: TextInput, chunkBytes = 1 << 20): AsyncGenerator<Buffer> {
  if (input.compressed || input.encoding !== 'utf8') {
    yield* utf8Source(input, chunkBytes).stream as AsyncIterable<Buffer>;
    return;
  }
  const handle = await open(input.path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    let position = input.bomBytes + input.preambleBytes;
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

/**
 * Pipes the stages one into the next: an error of any stage but the last
 * ends the last one with it (as `mapError` words it), and closing the last
 * one closes them all, the file too.
 */
function chain(stages: Readable[], mapError: (err: Error) => Error): Readable {
  const last = stages[stages.length - 1]!;
  for (let i = 1; i < stages.length; i++) {
    const from = stages[i - 1]!;
    from.on('error', (err) => last.destroy(mapError(err)));
    from.pipe(stages[i] as Transform);
  }
  last.once('close', () => {
    for (const stage of stages) stage.destroy();
  });
  return last;
}

/** Drops the first `count` bytes (a BOM or a `sep=` line that is not text for the parser). */
function skip(count: number): Transform {
  let left = count;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (left === 0) return callback(null, chunk);
      const dropped = Math.min(left, chunk.length);
      left -= dropped;
      callback(null, dropped === chunk.length ? undefined : chunk.subarray(dropped));
    },
  });
}

/** UTF-16 or a Windows code page decoded to UTF-8, a chunk at a time (a character cut between chunks stays whole). */
function recode(encoding: TextEncodingName): Transform {
  const decoder = new TextDecoder(decoderLabel(encoding));
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8'));
    },
    flush(callback) {
      const rest = decoder.decode();
      callback(null, rest ? Buffer.from(rest, 'utf8') : undefined);
    },
  });
}
