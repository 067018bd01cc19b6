// Webhook deliveries (service-spec.md "Events"): events queue per webhook and leave in batches, at
// most one request per interval. A failed request keeps its events for the next; a webhook that
// keeps failing past the tolerance (spec "Limits") is deactivated.
import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import type { Store } from './store.js';
import type { WebhookEvent, WebhookFormat, WebhookRegistration } from './types.js';

/** service-spec.md "Events" rule 3 and "Limits": 1000 events per request. */
export const WEBHOOK_BATCH_LIMIT = 1000;
/** service-spec.md "Events" rule 3: one request every 10 seconds. */
export const DEFAULT_WEBHOOK_INTERVAL_MS = 10_000;
/** service-spec.md "Events" rule 4: deactivated after more than a week of failures. */
export const DEFAULT_WEBHOOK_TOLERANCE_MS = 7 * 24 * 60 * 60 * 1000;
/** Time a first event waits for others so they can share a request. */
const GATHER_MS = 50;
const DELIVERY_TIMEOUT_MS = 10_000;
/** Of a receiver's answer only the status counts: past this much the connection is dropped. */
const ANSWER_READ_BYTES = 64 * 1024;

interface WebhookDispatcherOptions {
  intervalMs: number;
  toleranceMs: number;
  now(): Date;
  /** Called after each delivery attempt (tests and the CLI summary can observe). */
  onAttempt?(webhook: WebhookRegistration, outcome: { ok: boolean; events: number; status?: number; error?: string }): void;
}

export class WebhookDispatcher {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Webhooks with a request on the wire. */
  private readonly sending = new Set<string>();
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly options: WebhookDispatcherOptions,
  ) {}

  /** Registers a receiver, or reuses the one already in the state for the same list and URL. */
  register(listId: string, url: string, format: WebhookFormat): WebhookRegistration {
    const existing = this.store.state.webhooks.find((w) => w.ListID === listId && w.Url === url);
    if (existing) {
      if (existing.Format !== format) this.store.mutate(() => (existing.Format = format));
      this.schedule(existing);
      return existing;
    }
    const webhook: WebhookRegistration = {
      WebhookID: randomUUID(),
      ListID: listId,
      Url: url,
      Format: format,
      Active: true,
      Pending: [],
      FailingSince: null,
      LastAttemptAt: null,
      DeliveredRequests: 0,
      FailedRequests: 0,
    };
    this.store.mutate((state) => state.webhooks.push(webhook));
    return webhook;
  }

  /** Resumes deliveries of events left pending by a previous run. */
  resume(): void {
    for (const webhook of this.store.state.webhooks) this.schedule(webhook);
  }

  wantsEvents(listId: string): boolean {
    return this.store.state.webhooks.some((w) => w.ListID === listId && w.Active);
  }

  emit(listId: string, event: WebhookEvent): void {
    for (const webhook of this.store.state.webhooks) {
      if (webhook.ListID !== listId || !webhook.Active) continue;
      webhook.Pending.push(event);
      this.store.mutate();
      this.schedule(webhook);
    }
  }

  /** Stops timers and waits for requests already on the wire. Pending events stay in the state. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(webhook: WebhookRegistration): void {
    // One request at a time per webhook: a second one would send the events still pending under the first again.
    if (this.stopped || !webhook.Active || webhook.Pending.length === 0 || this.timers.has(webhook.WebhookID) || this.sending.has(webhook.WebhookID)) return;
    const nowMs = this.options.now().getTime();
    const earliest = webhook.LastAttemptAt ? Date.parse(webhook.LastAttemptAt) + this.options.intervalMs : nowMs;
    const delay = Math.max(earliest - nowMs, Math.min(GATHER_MS, this.options.intervalMs));
    const timer = setTimeout(() => {
      this.timers.delete(webhook.WebhookID);
      this.sending.add(webhook.WebhookID);
      const delivery = this.deliver(webhook).finally(() => {
        this.inFlight.delete(delivery);
        this.sending.delete(webhook.WebhookID);
        this.schedule(webhook);
      });
      this.inFlight.add(delivery);
    }, delay);
    this.timers.set(webhook.WebhookID, timer);
  }

  private async deliver(webhook: WebhookRegistration): Promise<void> {
    if (this.stopped || !webhook.Active) return;
    const events = webhook.Pending.slice(0, WEBHOOK_BATCH_LIMIT);
    if (events.length === 0) return;
    const attemptAt = this.options.now();
    webhook.LastAttemptAt = attemptAt.toISOString();
    const { body, contentType } = encodeDelivery(webhook.Format, webhook.ListID, events);
    let status: number | undefined;
    let error: string | undefined;
    try {
      status = await postDelivery(webhook.Url, body, contentType);
    } catch (e) {
      error = (e as Error).message;
    }
    const ok = status !== undefined && status >= 200 && status < 300;
    this.store.mutate(() => {
      if (ok) {
        webhook.Pending.splice(0, events.length);
        webhook.FailingSince = null;
        webhook.DeliveredRequests++;
      } else {
        webhook.FailedRequests++;
        webhook.FailingSince ??= attemptAt.toISOString();
        if (attemptAt.getTime() - Date.parse(webhook.FailingSince) > this.options.toleranceMs) {
          webhook.Active = false;
          webhook.Pending = [];
        }
      }
    });
    this.options.onAttempt?.(webhook, { ok, events: events.length, status, error });
  }
}

export function encodeDelivery(format: WebhookFormat, listId: string, events: WebhookEvent[]): { body: string; contentType: string } {
  if (format === 'json') return { body: JSON.stringify({ Events: events, ListID: listId }), contentType: 'application/json' };
  return { body: toXml(listId, events), contentType: 'application/xml' };
}

/**
 * XML form of a delivery (the spec does not show it; documented in
 * docs/sandbox.md): element names equal the JSON field names,
 * `<Webhook><Events><Event>…</Event></Events><ListID>…</ListID></Webhook>`,
 * custom fields as `<CustomFields><CustomField><Key/><Value/></CustomField></CustomFields>`.
 */
export function toXml(listId: string, events: WebhookEvent[]): string {
  const parts: string[] = ['<?xml version="1.0" encoding="utf-8"?>', '<Webhook><Events>'];
  for (const event of events) {
    parts.push('<Event>');
    for (const [name, value] of Object.entries(event)) {
      if (value === undefined) continue;
      if (name === 'CustomFields') {
        parts.push('<CustomFields>');
        for (const field of value as WebhookEvent['CustomFields']) {
          parts.push(`<CustomField><Key>${xmlText(field.Key)}</Key><Value>${xmlText(field.Value)}</Value></CustomField>`);
        }
        parts.push('</CustomFields>');
      } else {
        parts.push(`<${name}>${xmlText(String(value))}</${name}>`);
      }
    }
    parts.push('</Event>');
  }
  parts.push(`</Events><ListID>${xmlText(listId)}</ListID></Webhook>`);
  return parts.join('');
}

function xmlText(value: string): string {
  return value
    // Characters XML 1.0 cannot carry at all.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * One delivery POST, answered with the receiver's status. Through node:http,
 * not fetch, which refuses ports the service reaches (6000, 6665-6669,
 * 10080…); a redirect is a status like any other, never followed.
 */
async function postDelivery(url: string, body: string, contentType: string): Promise<number> {
  const target = new URL(url);
  // node:https (and TLS) load only for a receiver that needs them.
  const send = target.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  const options: RequestOptions = {
    method: 'POST',
    headers: { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'User-Agent': 'email-sandbox-webhooks' },
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
  };
  return new Promise((resolve, reject) => {
    const req = send(target, options, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > ANSWER_READ_BYTES) res.destroy();
      });
      res.on('error', () => undefined);
      res.on('close', () => resolve(status));
    });
    req.on('error', reject);
    req.end(body);
  });
}
