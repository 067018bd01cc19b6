// `email webhooks replay`: sends saved deliveries (files written by `listen
// --save`, or any file holding a delivery body) again, untouched, one request
// per file in the order given. Every file is read and checked before anything
// is sent, so a typo in the list sends nothing (exit 2).
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { readNamedInput } from '../../core/bounded-read.js';
import { CliError, UsageError } from '../../core/errors.js';
import { decodeDelivery, detectFormat } from '../../webhooks/decode.js';
import { CONTENT_TYPES } from '../../webhooks/events.js';
import { PlainPoster, postBody, receiverUrl } from '../../webhooks/post.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../webhooks/receiver.js';
import { contentTypeForFile } from '../../webhooks/saved-deliveries.js';
import { pause, RequestReport } from './sent-requests.js';

import type { ReplayInput } from './replay.js';

export async function replayCommand(flags: ReplayInput, ctx: Context): Promise<number> {
  const to = receiverUrl('--to', flags.to);
  const files = flags.savedFile.map((file) => ({ file, path: resolve(ctx.cwd, file) }));
  if (files.length === 0) throw new UsageError('name at least one saved delivery file');

  // A pipe (a FIFO, `<(…)`) cannot be read twice: its body is kept from the
  // check to the send; a regular file is read again when its turn comes, so
  // memory holds one delivery at a time however many files are named.
  const plan: { file: string; path: string; contentType: string; events: number; body?: Buffer }[] = [];
  for (const { file, path } of files) {
    const { data: body, regularFile } = await readSaved(file, path, ctx.signal);
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

  const report = new RequestReport(ctx, 'file');
  const poster = new PlainPoster();
  try {
    for (const [i, item] of plan.entries()) {
      if (ctx.signal.aborted) break;
      if (i > 0) await pause(flags.interval, ctx.signal);
      const body = item.body ?? (await readSaved(item.file, item.path, ctx.signal)).data;
      const outcome = await postBody(to, body, item.contentType, { signal: ctx.signal, timeoutMs: ctx.globals.timeoutMs, poster });
      if (ctx.signal.aborted) break;
      await report.add({ file: item.file, events: item.events }, outcome);
    }
  } finally {
    await poster.close();
  }
  return report.finish(to.href);
}

/**
 * A saved delivery, at most as large as the receiver takes one (10 MiB,
 * CLI.md `webhooks listen`); a FIFO or /dev/zero is read so that a signal or
 * the cap ends it (CLI.md "answer size", "signals").
 */
async function readSaved(file: string, path: string, signal: AbortSignal): Promise<{ data: Buffer; regularFile: boolean }> {
  try {
    return await readNamedInput(path, { maxBytes: DEFAULT_MAX_BODY_BYTES, limit: '10 MiB, the largest delivery `webhooks listen` takes', name: file, signal });
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${file}${code === 'ENOENT' ? ': no such file' : code === 'EISDIR' ? ': it is a directory' : `: ${(error as Error).message}`}`);
  }
}
