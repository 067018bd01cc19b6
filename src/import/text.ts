// The input's text as every pass reads it: UTF-8 bytes after the BOM and a
// `sep=` line, whatever the file is (UTF-16, a Windows code page, gzip),
// decoded and inflated a chunk at a time, so nothing of it is kept in memory.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { constants as zlib, createGunzip } from 'node:zlib';
import { UsageError } from '../core/errors.js';

export type TextEncodingName = 'utf8' | 'utf16le' | 'utf16be' | 'windows-1252' | 'latin1';

export interface TextInput {
  name: string;
  path: string;
  encoding: TextEncodingName;
  /** The lengths below are of the inflated bytes. */
  compressed: boolean;
  bomBytes: number;
  /** UTF-8 bytes of a `sep=` first line after the BOM: not a row. */
  preambleBytes: number;
}

/** latin1 is decoded as windows-1252, as WHATWG defines it. */
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

/** A compressed input is known by its magic number, whatever its name. */
export function isGzip(bytes: Buffer): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

export function gzipError(name: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  const what = code === 'Z_BUF_ERROR' ? 'truncated' : 'corrupt';
  return new UsageError(`${name}: ${what} gzip data (${(err as Error).message})`);
}

/** Flushed, not finished, so compressed bytes cut anywhere are no error; at most `max` bytes and a chunk are held. */
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
  stream: Readable;
  /** Compressed bytes of a gzip file, as its size is. */
  bytesRead(): number;
}

export function utf8Source(input: TextInput, highWaterMark = 64 * 1024): Utf8Source {
  const plain = !input.compressed && input.encoding === 'utf8';
  const start = input.compressed ? 0 : input.bomBytes + (plain ? input.preambleBytes : 0);
  const file = createReadStream(input.path, { start, highWaterMark });
  const bytesRead = () => start + file.bytesRead;
  if (plain) return { stream: file, bytesRead };
  const stages: Readable[] = [file];
  // A stage after gunzip (even a skip of nothing): zlib's errors then reach the reader in words naming the file.
  if (input.compressed) stages.push(createGunzip({ chunkSize: highWaterMark }), skip(input.bomBytes));
  if (input.encoding !== 'utf8') stages.push(recode(input.encoding));
  if (input.preambleBytes) stages.push(skip(input.preambleBytes));
  const name = input.name;
  return { stream: chain(stages, (err) => (/^Z_/.test(String((err as NodeJS.ErrnoException).code)) ? gzipError(name, err) : err)), bytesRead };
}

/**
 * For a pass that looks at each chunk and lets it go. A plain UTF-8 file is
 * read into one reused buffer (a stream's new buffer per chunk would wait for
 * V8 to collect): each chunk is valid only until the next one.
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

/** An error of any stage ends the last one with it; closing the last closes them all, the file too. */
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

/** A character cut between chunks stays whole. */
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
