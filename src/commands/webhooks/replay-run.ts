// `email webhooks replay`: sends saved deliveries (files written by `listen
// --save`, or any file holding a delivery body) again, untouched, one request
// per file in the order given. Every file is read and checked before anything
// is sent, so a typo in the list sends nothing (exit 2).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { decodeDelivery, detectFormat } from '../../webhooks/decode.js';
import { CONTENT_TYPES } from '../../webhooks/events.js';
import { postBody, receiverUrl } from '../../webhooks/post.js';
import { contentTypeForFile } from '../../webhooks/saved-deliveries.js';
import { pause, RequestReport } from './sent-requests.js';

import type { ReplayInput } from './replay.js';

export async function replayCommand(flags: ReplayInput, ctx: Context): Promise<number> {
  const to = receiverUrl('--to', flags.to);
  const files = flags.savedFile.map((file) => ({ file, path: resolve(ctx.cwd, file) }));
  if (files.length === 0) throw new UsageError('name at least one saved delivery file');

  const plan: { file: string; path: string; contentType: string; events: number }[] = [];
  for (const { file, path } of files) {
    const body = await readSaved(file, path);
    let decoded;
    try {
      decoded = decodeDelivery(body, contentTypeForFile(path));
    } catch (error) {
      throw new UsageError(`${file} does not hold a delivery: ${(error as Error).message}`);
    }
    plan.push({ file, path, contentType: contentTypeForFile(path) ?? CONTENT_TYPES[detectFormat(body.toString('utf8'))], events: decoded.delivery.Events.length });
  }

  const report = new RequestReport(ctx, 'file');
  for (const [i, item] of plan.entries()) {
    if (ctx.signal.aborted) break;
    if (i > 0) await pause(flags.interval, ctx.signal);
    const body = await readSaved(item.file, item.path);
    const outcome = await postBody(to, body, item.contentType, { signal: ctx.signal, timeoutMs: ctx.globals.timeoutMs });
    if (ctx.signal.aborted) break;
    await report.add({ file: item.file, events: item.events }, outcome);
  }
  return report.finish(to.href);
}

async function readSaved(file: string, path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${file}${code === 'ENOENT' ? ': no such file' : code === 'EISDIR' ? ': it is a directory' : `: ${(error as Error).message}`}`);
  }
}
