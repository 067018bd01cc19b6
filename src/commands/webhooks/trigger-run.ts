// `email webhooks trigger`: realistic synthetic deliveries sent to a receiver
// the way the service sends them (service-spec.md "Events": {Events, ListID}
// bodies of at most 1000 events, JSON or XML), each request's status reported.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { batchesOf } from '../../webhooks/batches.js';
import { encodeDelivery } from '../../webhooks/encode.js';
import { PlainPoster, postBody, receiverUrl } from '../../webhooks/post.js';
import { syntheticEvents } from '../../webhooks/synthetic.js';
import { pause, RequestReport } from './sent-requests.js';

import type { TriggerInput } from './trigger.js';

export async function triggerCommand(flags: TriggerInput, ctx: Context): Promise<number> {
  const to = receiverUrl('--to', flags.to);
  const listId = flags.list ?? randomUUID();
  const batchSize = flags.batchSize;

  const report = new RequestReport(ctx, 'request');
  const poster = new PlainPoster();
  let request = 0;
  try {
    for (const events of batchesOf(syntheticEvents({ type: flags.type, count: flags.count, end: ctx.now() }), batchSize)) {
      if (ctx.signal.aborted) break;
      if (request > 0) await pause(flags.interval, ctx.signal);
      request++;
      const { body, contentType } = encodeDelivery(flags.format, { Events: events, ListID: listId });
      const outcome = await postBody(to, body, contentType, { signal: ctx.signal, timeoutMs: ctx.globals.timeoutMs, poster });
      if (ctx.signal.aborted) break;
      await report.add({ request, events: events.length }, outcome);
    }
  } finally {
    await poster.close();
  }
  return report.finish(to.href);
}
