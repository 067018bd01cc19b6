// The delivery receiver behind `webhooks listen`, over real loopback HTTP:
// its limits (CLI.md `webhooks listen`: a delivery over 10 MiB or over 1,000
// events is refused with 413), and how many deliveries it reads and parses
// at once, which is what keeps its memory bounded under concurrent large POSTs.
import { afterEach, describe, expect, it } from 'vitest';
import { encodeDelivery } from '../../src/webhooks/encode.js';
import type { WebhookEvent } from '../../src/webhooks/events.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_IN_PROGRESS, startDeliveryReceiver, type ReceivedDelivery, type RejectedRequest, type RunningReceiver } from '../../src/webhooks/receiver.js';
import { syntheticEvents } from '../../src/webhooks/synthetic.js';
import { post, streamPost, waitUntil } from '../helpers/webhooks.js';

const LIST = '11111111-1111-4111-8111-111111111111';
const MiB = 1024 * 1024;

const receivers: RunningReceiver[] = [];
afterEach(async () => {
  while (receivers.length) await receivers.pop()!.close();
});

async function receiver(options: { maxInProgress?: number } = {}) {
  const deliveries: ReceivedDelivery[] = [];
  const rejected: RejectedRequest[] = [];
  const r = await startDeliveryReceiver({ port: 0, host: '127.0.0.1', onDelivery: (d) => deliveries.push(d), onRejected: (x) => rejected.push(x), ...options });
  receivers.push(r);
  return { r, deliveries, rejected };
}

const events = (count: number): WebhookEvent[] => [...syntheticEvents({ type: 'Subscribe', count, end: new Date('2025-01-01T00:00:00Z') })];

describe('delivery receiver limits', () => {
  it('takes 10 MiB as the largest delivery', () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(10 * MiB);
  });

  it('answers 413 as soon as a body crosses 10 MiB, while the sender is still sending', async () => {
    const { r, rejected } = await receiver();
    // 10 MiB and 64 KiB are sent, then the sender waits: only a receiver that counts while reading can answer now.
    const sending = streamPost(r.url, { totalBytes: 40 * MiB, holdAfter: 10 * MiB + 64 * 1024 });
    const answer = await sending.done;
    expect(answer.status).toBe(413);
    expect(answer.finished).toBe(false);
    expect(answer.text).toMatch(/larger than 10 MiB/);
    expect(rejected).toEqual([expect.objectContaining({ status: 413 })]);
  });

  it('answers 413 at once for a Content-Length over 10 MiB, before any of the body is read', async () => {
    const { r } = await receiver();
    const answer = await streamPost(r.url, { totalBytes: 31 * 1000 * 1000, contentLength: true, holdAfter: 0 }).done;
    expect(answer).toMatchObject({ status: 413, bytesSent: 0 });
  });

  it('takes a body of exactly 10 MiB in full', async () => {
    const { r, deliveries } = await receiver();
    const one = JSON.stringify({ Events: [{ Type: 'Subscribe', Name: '' }], ListID: LIST });
    const body = one.replace('"Name":""', `"Name":"${'n'.repeat(10 * MiB - one.length)}"`);
    expect(Buffer.byteLength(body)).toBe(10 * MiB);
    expect((await post(r.url, body, 'application/json')).status).toBe(200);
    expect(deliveries).toHaveLength(1);
  });

  it.each(['json', 'xml'] as const)('answers 413 for more than 1,000 events in one %s delivery and 200 for 1,000', async (format) => {
    const { r, deliveries, rejected } = await receiver();
    const over = encodeDelivery(format, { Events: events(1001), ListID: LIST });
    const answer = await post(r.url, over.body, over.contentType);
    expect(answer.status).toBe(413);
    expect(answer.text).toBe('more than 1000 events in one delivery (the service sends at most 1000)\n');
    const full = encodeDelivery(format, { Events: events(1000), ListID: LIST });
    expect((await post(r.url, full.body, full.contentType)).status).toBe(200);
    expect(deliveries.map((d) => d.delivery.Events.length)).toEqual([1000]);
    expect(rejected.map((x) => x.status)).toEqual([413]);
  });

  it('refuses an XML delivery of 161,721 events from a count taken before the document is parsed', async () => {
    const { r } = await receiver();
    // The document is cut short at its end: a parse would call it invalid (400); the count comes first.
    const body = `<Webhook><Events>${'<Event><Type>Subscribe</Type></Event>'.repeat(161_721)}</Events><ListID>${LIST}</ListID><Unclosed>`;
    expect(Buffer.byteLength(body)).toBeLessThan(10 * MiB);
    const answer = await post(r.url, body, 'application/xml');
    expect(answer.status).toBe(413);
  });

  it('does not count what only looks like events in XML: comments, CDATA, attributes and nested elements', async () => {
    const { r, deliveries } = await receiver();
    const event = `<ns:Event kind="a>b"><Type>Subscribe</Type><CustomFields><CustomField><Key>k</Key><Value><![CDATA[<Event/>]]></Value></CustomField></CustomFields></ns:Event>`;
    const body = `<?xml version="1.0"?><!DOCTYPE Webhook><ns:Webhook xmlns:ns="urn:x"><!-- ${'<Event/>'.repeat(5)} --><ns:Events>${event.repeat(1000)}</ns:Events><ns:ListID>${LIST}</ns:ListID></ns:Webhook>`;
    expect((await post(r.url, body, 'application/xml')).status).toBe(200);
    expect(deliveries[0]!.delivery.Events).toHaveLength(1000);
  });
});

describe('delivery receiver concurrency', () => {
  it(`reads and parses at most ${DEFAULT_MAX_IN_PROGRESS} deliveries at once by default; the others wait their turn, then get their answer`, async () => {
    const { r, deliveries } = await receiver();
    const slow = Array.from({ length: DEFAULT_MAX_IN_PROGRESS }, () => streamPost(r.url, { totalBytes: 2 * 64 * 1024, holdAfter: 64 * 1024 }));
    await waitUntil(() => r.stats().inProgress === DEFAULT_MAX_IN_PROGRESS, 'the slow deliveries to take every place');
    let answered: number | undefined;
    const full = encodeDelivery('json', { Events: events(3), ListID: LIST });
    const waiting = post(r.url, full.body, full.contentType).then((a) => (answered = a.status));
    await waitUntil(() => r.stats().waiting === 1, 'the next delivery to wait');
    expect(answered).toBeUndefined();
    expect(deliveries).toHaveLength(0);
    slow[0]!.release(); // the first slow sender finishes: its place goes to the waiting delivery
    expect((await slow[0]!.done).status).toBe(400);
    await waiting;
    expect(answered).toBe(200);
    expect(deliveries).toHaveLength(1);
    for (const s of slow.slice(1)) s.release();
    await Promise.all(slow.map((s) => s.done));
    expect(r.stats()).toMatchObject({ inProgress: 0, waiting: 0, peakInProgress: DEFAULT_MAX_IN_PROGRESS });
  });

  it('holds at most (places × 10 MiB) of bodies under eight concurrent 31 MB POSTs, all refused with 413', async () => {
    const { r, rejected } = await receiver({ maxInProgress: 2 });
    const posts = Array.from({ length: 8 }, () => streamPost(r.url, { totalBytes: 31 * 1000 * 1000 }).done);
    const answers = await Promise.all(posts);
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(413));
    // None had to send its whole body to learn it was refused.
    expect(answers.filter((a) => a.finished)).toEqual([]);
    expect(rejected).toHaveLength(8);
    const stats = r.stats();
    expect(stats.peakInProgress).toBeLessThanOrEqual(2);
    expect(stats.peakBufferedBytes).toBeGreaterThan(0);
    expect(stats.peakBufferedBytes).toBeLessThanOrEqual(2 * 10 * MiB);
    expect(stats.bufferedBytes).toBe(0);
  });

  it('answers every one of 50 concurrent deliveries of 1,000 events with 200: beyond the places they wait, none is refused', async () => {
    const { r, deliveries } = await receiver({ maxInProgress: 2 });
    const body = encodeDelivery('json', { Events: events(1000), ListID: LIST });
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(r.url, body.body, body.contentType)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(deliveries).toHaveLength(50);
    expect(r.stats().peakInProgress).toBeLessThanOrEqual(2); // how many overlapped depends on arrival, not on the receiver
  });
});
