// The delivery receiver behind `webhooks listen`, over real loopback HTTP:
// its limits (CLI.md `webhooks listen`: a delivery over 10 MiB or over 1,000
// events is refused with 413), the bytes of bodies it reads at once, which is
// what keeps its memory bounded under concurrent large POSTs, the bound on
// deliveries answered but not yet done with (beyond it 503, issue 19.2), and
// slow senders (408, issue 19.4).
import { afterEach, describe, expect, it } from 'vitest';
import { encodeDelivery } from '../../src/webhooks/encode.js';
import type { WebhookEvent } from '../../src/webhooks/events.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_IN_PROGRESS, startDeliveryReceiver, type ReceivedDelivery, type RejectedRequest, type RunningReceiver } from '../../src/webhooks/receiver.js';
import { syntheticEvents } from '../../src/webhooks/synthetic.js';
import { paddedDelivery, post, streamPost, trickle, waitUntil, within, type Trickle } from '../helpers/webhooks.js';

const LIST = '11111111-1111-4111-8111-111111111111';
const MiB = 1024 * 1024;

const receivers: RunningReceiver[] = [];
afterEach(async () => {
  while (receivers.length) await receivers.pop()!.close();
});

type Options = Omit<Parameters<typeof startDeliveryReceiver>[0], 'port' | 'host' | 'onDelivery' | 'onRejected'>;

/** A receiver on loopback; each delivery is done with at once unless `keep` (then the test calls done()). */
async function receiver(options: Options & { keep?: boolean } = {}) {
  const deliveries: ReceivedDelivery[] = [];
  const rejected: RejectedRequest[] = [];
  const { keep, ...rest } = options;
  const onDelivery = (d: ReceivedDelivery) => {
    deliveries.push(d);
    if (!keep) d.done();
  };
  const r = await startDeliveryReceiver({ port: 0, host: '127.0.0.1', onDelivery, onRejected: (x) => rejected.push(x), ...rest });
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
  it('answers a delivery at once while eight senders trickle their bodies a byte a second: a slow upload holds no place (issue 19.4)', async () => {
    const { r, deliveries } = await receiver();
    const slow: Trickle[] = Array.from({ length: 8 }, () => trickle(r.url, { intervalMs: 1000, contentLength: 1000 }));
    try {
      await waitUntil(() => slow.every((t) => t.sent() >= 1), 'every slow sender to have sent its headers and a byte');
      const full = encodeDelivery('json', { Events: events(3), ListID: LIST });
      // The bound is the point: before, the eight held every place and this waited for Node's 300 s request timeout.
      const answer = await within(5_000, post(r.url, full.body, full.contentType), 'the answer to a normal delivery');
      expect(answer.status).toBe(200);
      expect(deliveries).toHaveLength(1);
      expect(slow.map((t) => t.status())).toEqual(Array(8).fill(undefined));
    } finally {
      for (const t of slow) t.stop();
    }
  });

  it(`parses at most ${DEFAULT_MAX_IN_PROGRESS} deliveries at once by default, a place taken only once a body has arrived whole`, async () => {
    const { r } = await receiver();
    const slow = Array.from({ length: DEFAULT_MAX_IN_PROGRESS + 2 }, () => streamPost(r.url, { totalBytes: 2 * 64 * 1024, holdAfter: 64 * 1024 }));
    await waitUntil(() => r.stats().reading === DEFAULT_MAX_IN_PROGRESS + 2, 'every slow body to be read as it comes');
    expect(r.stats()).toMatchObject({ inProgress: 0, waiting: 0 });
    for (const s of slow) s.release();
    expect((await Promise.all(slow.map((s) => s.done))).map((a) => a.status)).toEqual(Array(DEFAULT_MAX_IN_PROGRESS + 2).fill(400));
    expect(r.stats()).toMatchObject({ inProgress: 0, waiting: 0, reading: 0 });
    expect(r.stats().peakInProgress).toBeLessThanOrEqual(DEFAULT_MAX_IN_PROGRESS);
  });

  it('holds at most its reading budget (and one delivery beyond it) of bodies under eight concurrent 31 MB POSTs, all refused with 413', async () => {
    const { r, rejected } = await receiver({ maxReadingBytes: 20 * MiB });
    const posts = Array.from({ length: 8 }, () => streamPost(r.url, { totalBytes: 31 * 1000 * 1000 }).done);
    const answers = await Promise.all(posts);
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(413));
    // None had to send its whole body to learn it was refused.
    expect(answers.filter((a) => a.finished)).toEqual([]);
    expect(rejected).toHaveLength(8);
    const stats = r.stats();
    expect(stats.peakBufferedBytes).toBeGreaterThan(0);
    // The oldest body in progress may always go on (so bodies paused for room can never all wait on each other): 10 MiB beyond the budget at most.
    expect(stats.peakBufferedBytes).toBeLessThanOrEqual(20 * MiB + 10 * MiB + 8 * 64 * 1024);
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

describe('delivery receiver and slow senders (issue 19.4)', () => {
  it('answers 408 and closes the connection of a sender still trickling its body when the request deadline passes', async () => {
    const { r, rejected } = await receiver({ requestTimeoutMs: 1_500 });
    const t = trickle(r.url, { intervalMs: 200, contentLength: 1000 });
    expect(await within(10_000, t.ended, 'the trickling sender to be cut off')).toEqual({ status: 408, closed: true });
    expect(rejected).toEqual([expect.objectContaining({ status: 408 })]);
    expect(rejected[0]!.reason).toMatch(/all of it within 1\.5 s/);
    expect(r.stats().bufferedBytes).toBe(0);
  });

  it('answers 408 and closes the connection of a sender whose body stops coming', async () => {
    const { r, rejected } = await receiver({ bodyIdleTimeoutMs: 500 });
    const t = trickle(r.url, { intervalMs: 60_000, contentLength: 1000 }); // the headers, then nothing
    expect(await within(10_000, t.ended, 'the idle sender to be cut off')).toEqual({ status: 408, closed: true });
    expect(rejected[0]!.reason).toMatch(/no byte of the body for 0\.5 s/);
  });

  it('answers 408 and closes the connection of a sender whose headers never finish', async () => {
    const { r, rejected } = await receiver({ headersTimeoutMs: 500 });
    const t = trickle(r.url, { intervalMs: 100, headersOnly: true });
    expect(await within(10_000, t.ended, 'the slow headers to be cut off')).toEqual({ status: 408, closed: true });
    expect(rejected).toEqual([expect.objectContaining({ status: 408 })]);
  });
});

describe('delivery receiver when what it answered is not done with (issue 19.2)', () => {
  it('answers 503 with Retry-After once deliveries not done with would hold more than its bound, and 200 again once one is done', async () => {
    const { r, deliveries, rejected } = await receiver({ keep: true, maxHeldBytes: 3 * MiB });
    const body = paddedDelivery(1.2 * MiB);
    expect((await post(r.url, body, 'application/json')).status).toBe(200);
    expect((await post(r.url, body, 'application/json')).status).toBe(200);
    const refused = await fetch(r.url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    // 200 means delivered: what cannot be kept is refused, and the service sends it again later.
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await refused.text()).toMatch(/^busy: .+; send it again later\n$/);
    // Without a Content-Length the body is read first, then refused the same way.
    const chunked = await streamPost(r.url, { totalBytes: Buffer.byteLength(body), chunk: Buffer.from(body) }).done;
    expect(chunked).toMatchObject({ status: 503, finished: true });
    expect(chunked.text).toMatch(/^busy: holding 2\.\d MiB of deliveries not yet handed on \(at most 3 MiB\); send it again later\n$/);
    expect(deliveries).toHaveLength(2);
    expect(rejected).toEqual([expect.objectContaining({ status: 503 }), expect.objectContaining({ status: 503 })]);
    expect(r.stats().heldBytes).toBe(2 * Buffer.byteLength(body));
    deliveries[0]!.done();
    deliveries[0]!.done(); // twice counts once
    expect(r.stats().heldBytes).toBe(Buffer.byteLength(body));
    expect((await post(r.url, body, 'application/json')).status).toBe(200);
    expect(r.stats().peakHeldBytes).toBeLessThanOrEqual(3 * MiB);
  });
});
