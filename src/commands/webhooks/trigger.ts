// `email webhooks trigger`: realistic synthetic deliveries sent to a receiver
// the way the service sends them (service-spec.md "Events": {Events, ListID}
// bodies of at most 1000 events, JSON or XML), each request's status reported.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { isUuid } from '../../validation/email-address.js';
import { batchesOf } from '../../webhooks/batches.js';
import { encodeDelivery } from '../../webhooks/encode.js';
import { WEBHOOK_BATCH_LIMIT, type DeliveryFormat, type WebhookEventType } from '../../webhooks/events.js';
import { postBody, receiverUrl } from '../../webhooks/post.js';
import { syntheticEvents } from '../../webhooks/synthetic.js';
import { pause, RequestReport } from './sent-requests.js';

interface TriggerFlags {
  to: string;
  type: WebhookEventType;
  count: number;
  format: DeliveryFormat;
  list?: string;
  interval?: number;
  batchSize?: number;
}

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<number> {
  const flags = opts as unknown as TriggerFlags;
  const to = receiverUrl('--to', flags.to);
  if (flags.list !== undefined && !isUuid(flags.list)) throw new UsageError(`--list must be a list id (a UUID), got "${flags.list}"`);
  const listId = flags.list ?? randomUUID();
  const batchSize = flags.batchSize ?? WEBHOOK_BATCH_LIMIT;

  const report = new RequestReport(ctx, 'request');
  let request = 0;
  for (const events of batchesOf(syntheticEvents({ type: flags.type, count: flags.count, end: ctx.now() }), batchSize)) {
    if (ctx.signal.aborted) break;
    if (request > 0) await pause(flags.interval ?? 0, ctx.signal);
    request++;
    const { body, contentType } = encodeDelivery(flags.format, { Events: events, ListID: listId });
    const outcome = await postBody(to, body, contentType, { signal: ctx.signal, timeoutMs: ctx.globals.timeoutMs });
    if (ctx.signal.aborted) break;
    await report.add({ request, events: events.length }, outcome);
  }
  return report.finish(to.href);
}
