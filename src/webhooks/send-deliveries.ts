// What `webhooks trigger` and `replay` send, one request at a time, each yielded with its answer.
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { readNamedInput } from '../core/bounded-read.js';
import { CliError, UsageError } from '../core/errors.js';
import { batchesOf } from './batches.js';
import { decodeDelivery, detectFormat } from './decode.js';
import { encodeDelivery } from './encode.js';
import { CONTENT_TYPES, type WebhookEventType } from './events.js';
import { PlainPoster, postBody } from './post.js';
import { DEFAULT_MAX_BODY_BYTES } from './receiver.js';
import { contentTypeForFile, isSavedDeliveryName } from './saved-deliveries.js';
import { pause, type Sent } from './sent-requests.js';
import { syntheticEvents } from './synthetic.js';

export interface Sending {
  signal: AbortSignal;
  timeoutMs?: number;
  interval: number;
}

export interface Synthetic {
  type: WebhookEventType;
  count: number;
  format: 'json' | 'xml';
  list?: string;
  batchSize: number;
  end: Date;
}

/** Batched as the service sends them (service-spec.md "Events"). */
export async function* sendSynthetic(to: URL, what: Synthetic, how: Sending): AsyncGenerator<Sent> {
  const listId = what.list ?? randomUUID();
  const poster = new PlainPoster();
  let request = 0;
  try {
    for (const events of batchesOf(syntheticEvents({ type: what.type, count: what.count, end: what.end }), what.batchSize)) {
      if (how.signal.aborted) break;
      if (request > 0) await pause(how.interval, how.signal);
      request++;
      const { body, contentType } = encodeDelivery(what.format, { Events: events, ListID: listId });
      const outcome = await postBody(to, body, contentType, { signal: how.signal, timeoutMs: how.timeoutMs, poster });
      if (how.signal.aborted) break;
      yield { base: { request, events: events.length }, outcome };
    }
  } finally {
    await poster.close();
  }
}

export interface SavedDelivery {
  file: string;
  path: string;
  contentType: string;
  events: number;
  /** Kept only for a file that cannot be read twice (a pipe). */
  body?: Buffer;
}

/**
 * All read and checked before anything is sent, so a typo sends nothing. A regular file is read
 * again when its turn comes, so memory holds one delivery at a time.
 */
export async function planReplay(names: string[], cwd: string, signal: AbortSignal): Promise<SavedDelivery[]> {
  if (names.length === 0) throw new UsageError('name at least one saved delivery file');
  const plan: SavedDelivery[] = [];
  for (const file of await withFolders(names, cwd)) {
    const path = resolve(cwd, file);
    const { data: body, regularFile } = await readSaved(file, path, signal);
    let decoded;
    try {
      decoded = decodeDelivery(body, contentTypeForFile(path));
    } catch (error) {
      throw new UsageError(`${file} does not hold a delivery: ${(error as Error).message}`);
    }
    plan.push({
      file,
      path,
      contentType: contentTypeForFile(path) ?? CONTENT_TYPES[detectFormat(body.toString('utf8'))],
      events: decoded.delivery.Events.length,
      ...(regularFile ? {} : { body }),
    });
  }
  return plan;
}

/** A folder stands for the deliveries `listen --save` wrote in it, in arrival order. */
async function withFolders(names: string[], cwd: string): Promise<string[]> {
  const { readdir, stat } = await import('node:fs/promises');
  const files: string[] = [];
  for (const name of names) {
    const isFolder = await stat(resolve(cwd, name)).then((s) => s.isDirectory(), () => false);
    if (!isFolder) {
      files.push(name);
      continue;
    }
    const saved = (await readdir(resolve(cwd, name))).filter(isSavedDeliveryName).sort();
    if (saved.length === 0) throw new UsageError(`${name} holds no saved delivery (delivery-….json or .xml, as \`webhooks listen --save\` names them)`);
    files.push(...saved.map((f) => join(name, f)));
  }
  return files;
}

export async function* sendSaved(to: URL, plan: SavedDelivery[], how: Sending): AsyncGenerator<Sent> {
  const poster = new PlainPoster();
  try {
    for (const [i, item] of plan.entries()) {
      if (how.signal.aborted) break;
      if (i > 0) await pause(how.interval, how.signal);
      const body = item.body ?? (await readSaved(item.file, item.path, how.signal)).data;
      const outcome = await postBody(to, body, item.contentType, { signal: how.signal, timeoutMs: how.timeoutMs, poster });
      if (how.signal.aborted) break;
      yield { base: { file: item.file, events: item.events }, outcome };
    }
  } finally {
    await poster.close();
  }
}

/** Capped as the receiver caps one; a FIFO or /dev/zero ends on a signal or the cap (CLI.md "signals"). */
async function readSaved(file: string, path: string, signal: AbortSignal): Promise<{ data: Buffer; regularFile: boolean }> {
  try {
    return await readNamedInput(path, { maxBytes: DEFAULT_MAX_BODY_BYTES, limit: '10 MiB, the largest delivery `webhooks listen` takes', name: file, signal });
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${file}${code === 'ENOENT' ? ': no such file' : code === 'EISDIR' ? ': it is a directory' : `: ${(error as Error).message}`}`);
  }
}
