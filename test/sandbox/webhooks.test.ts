// Webhook deliveries (service-spec.md "Events"): batching, interval, retry,
// deactivation, JSON and XML bodies.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, type RunningSandbox } from '../../src/sandbox/index.js';
import { withSandbox, type SandboxClient } from '../helpers/sandbox.js';
import { startScriptedReceiver, waitUntil, type ScriptedReceiver } from '../helpers/webhooks.js';
import { useCleanups } from '../helpers/cleanups.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;
const CUSTOMERS = SEED_LIST_IDS.customers;

const cleanups = useCleanups();

async function setup(options: Parameters<typeof withSandbox>[0], format: 'json' | 'xml' = 'json', listId: string = NEWSLETTER) {
  const receiver = await startScriptedReceiver(cleanups);
  const client = await withSandbox({ ...options, webhooks: [{ listId, url: receiver.url, format }] });
  cleanups.push(() => client.sandbox.stop());
  return { receiver, client };
}

const entries = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ EmailAddress: `${prefix}${i}@example.com`, Name: `${prefix} ${i}`, CustomFields: [], ConsentToTrack: 'Yes' }));

async function importMany(client: SandboxClient, prefix: string, n: number) {
  const answer = await client.call('POST', `/email/subscribers/${NEWSLETTER}/import`, { Subscribers: entries(prefix, n), Resubscribe: false, QueueSubscriptionBasedAutoResponders: false });
  expect(answer.status).toBe(200);
}

const webhookOf = (sandbox: RunningSandbox) => sandbox.webhooks()[0];

describe('webhook batching', () => {
  it('delivers 2,500 events as requests of 1000, 1000 and 500, at most one per interval, in order', async () => {
    const intervalMs = 100;
    const { receiver, client } = await setup({ webhookIntervalMs: intervalMs });
    await importMany(client, 'a', 1000);
    await importMany(client, 'b', 1000);
    await importMany(client, 'c', 500);
    await waitUntil(() => receiver.acceptedEvents().length === 2500, '2,500 events');
    expect(receiver.requests.map((d) => d.json.Events.length)).toEqual([1000, 1000, 500]);
    for (const d of receiver.requests) expect(d.json.ListID).toBe(NEWSLETTER);
    const addresses = receiver.acceptedEvents().map((e) => e.EmailAddress);
    expect(addresses).toEqual([...entries('a', 1000), ...entries('b', 1000), ...entries('c', 500)].map((e) => e.EmailAddress));
  });

  it('spaces the requests to one webhook by the interval', async () => {
    const intervalMs = 200;
    const { receiver, client } = await setup({ webhookIntervalMs: intervalMs });
    await importMany(client, 'a', 1000);
    await importMany(client, 'b', 1000);
    await importMany(client, 'c', 1);
    await waitUntil(() => receiver.acceptedEvents().length === 2001, 'all events');
    const starts = receiver.requests.map((d) => d.startedAt);
    expect(starts).toHaveLength(3);
    // Measured at the receiver, when the request headers arrive; encoding the
    // batch takes a few milliseconds after the sandbox starts an attempt.
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(intervalMs * 0.85);
  });

  it('groups the events of several requests made within an interval in one delivery', async () => {
    const { receiver, client } = await setup({ webhookIntervalMs: 1000 });
    await client.call('POST', `/email/subscribers/${NEWSLETTER}`, { EmailAddress: 'g0@example.com', Name: 'G', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
    await waitUntil(() => receiver.requests.length === 1, 'the first delivery');
    for (let i = 1; i <= 5; i++) {
      await client.call('POST', `/email/subscribers/${NEWSLETTER}`, { EmailAddress: `g${i}@example.com`, Name: 'G', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
    }
    await waitUntil(() => receiver.acceptedEvents().length === 6, 'all events');
    expect(receiver.requests.map((d) => d.json.Events.length)).toEqual([1, 5]);
  });

  it('only sends the events of the list the webhook is registered on', async () => {
    const { receiver, client } = await setup({ webhookIntervalMs: 10 }, 'json', CUSTOMERS);
    await client.call('POST', `/email/subscribers/${NEWSLETTER}`, { EmailAddress: 'n@example.com', Name: 'N', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
    await client.call('POST', `/email/subscribers/${CUSTOMERS}`, { EmailAddress: 'c@example.com', Name: 'C', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
    await waitUntil(() => receiver.acceptedEvents().length >= 1, 'a delivery');
    expect(receiver.acceptedEvents().map((e) => e.EmailAddress)).toEqual(['c@example.com']);
    expect(receiver.requests[0].json.ListID).toBe(CUSTOMERS);
  });
});

describe('failed deliveries', () => {
  it('are retried at the next interval with the same events, in order', async () => {
    const { receiver, client } = await setup({ webhookIntervalMs: 20 });
    receiver.respondWith(500);
    await importMany(client, 'r', 3);
    await waitUntil(() => receiver.requests.length >= 2, 'two failed attempts');
    receiver.respondWith(200);
    await importMany(client, 's', 1);
    await waitUntil(() => receiver.acceptedEvents().length === 4, 'the retried events');
    expect(receiver.acceptedEvents().map((e) => e.EmailAddress)).toEqual(['r0@example.com', 'r1@example.com', 'r2@example.com', 's0@example.com']);
    const failed = receiver.requests.filter((d) => d.status === 500);
    for (const d of failed) expect(d.json.Events.slice(0, 3).map((e: any) => e.EmailAddress)).toEqual(['r0@example.com', 'r1@example.com', 'r2@example.com']);
    await waitUntil(() => webhookOf(client.sandbox).Pending.length === 0, 'the sandbox to see the success');
    expect(webhookOf(client.sandbox)).toMatchObject({ Active: true, FailingSince: null, Pending: [] });
  });

  it('are retried when the receiver cannot be reached', async () => {
    const receiver = await startScriptedReceiver();
    const url = receiver.url;
    await receiver.close();
    const client = await withSandbox({ webhookIntervalMs: 20, webhooks: [{ listId: NEWSLETTER, url, format: 'json' }] });
    cleanups.push(() => client.sandbox.stop());
    await importMany(client, 'u', 2);
    await waitUntil(() => webhookOf(client.sandbox).FailedRequests >= 2, 'two failed attempts');
    expect(webhookOf(client.sandbox).Pending.map((e) => e.EmailAddress)).toEqual(['u0@example.com', 'u1@example.com']);
    expect(webhookOf(client.sandbox).Active).toBe(true);
  });

  it('deactivate a webhook failing continuously for longer than the tolerance, which then gets nothing', async () => {
    const { receiver, client } = await setup({ webhookIntervalMs: 10, webhookToleranceMs: 80 });
    receiver.respondWith(503);
    await importMany(client, 'd', 2);
    await waitUntil(() => webhookOf(client.sandbox).Active === false, 'deactivation');
    const attempts = receiver.requests.length;
    expect(attempts).toBeGreaterThanOrEqual(2);
    const webhook = webhookOf(client.sandbox);
    expect(Date.parse(webhook.LastAttemptAt!) - Date.parse(webhook.FailingSince!)).toBeGreaterThan(80);
    receiver.respondWith(200);
    await importMany(client, 'e', 2);
    expect(webhookOf(client.sandbox).Pending).toEqual([]);
    // Another list's webhook would still work; this one stays silent.
    await new Promise((r) => setTimeout(r, 60));
    expect(receiver.requests.length).toBe(attempts);
  });

  it('a success before the tolerance resets the failure run', async () => {
    const { receiver, client } = await setup({ webhookIntervalMs: 10, webhookToleranceMs: 60_000 });
    receiver.respondWith(500);
    await importMany(client, 'f', 1);
    await waitUntil(() => webhookOf(client.sandbox).FailingSince !== null, 'a failure');
    receiver.respondWith(200);
    await waitUntil(() => webhookOf(client.sandbox).FailingSince === null, 'recovery');
    expect(webhookOf(client.sandbox).Active).toBe(true);
  });
});

describe('delivery bodies', () => {
  it('JSON: {Events, ListID} with application/json', async () => {
    const { receiver, client } = await setup({ webhookIntervalMs: 10 });
    await client.call('POST', `/email/subscribers/${NEWSLETTER}`, {
      EmailAddress: 'json@example.com',
      Name: 'J',
      CustomFields: [
        { Key: 'Interests', Value: 'News' },
        { Key: 'Interests', Value: 'Offers' },
      ],
      ConsentToTrack: 'Yes',
      Resubscribe: false,
    });
    await waitUntil(() => receiver.requests.length === 1, 'a delivery');
    expect(receiver.requests[0].contentType).toBe('application/json');
    expect(Object.keys(receiver.requests[0].json).sort()).toEqual(['Events', 'ListID']);
    expect(receiver.requests[0].json.Events[0].CustomFields).toEqual([
      { Key: '[Interests]', Value: 'News' },
      { Key: '[Interests]', Value: 'Offers' },
    ]);
  });

  it('XML: <Webhook><Events><Event>… with the JSON field names, escaped text and application/xml', async () => {
    const { receiver, client } = await setup({ webhookIntervalMs: 10 }, 'xml');
    await client.call('POST', `/email/subscribers/${NEWSLETTER}`, {
      EmailAddress: 'xml@example.com',
      Name: 'Tom & <Jerry>',
      CustomFields: [{ Key: 'Company', Value: 'A "B" \'C\'' }],
      ConsentToTrack: 'Yes',
      Resubscribe: false,
    });
    await waitUntil(() => receiver.requests.length === 1, 'a delivery');
    const { text, contentType } = receiver.requests[0];
    expect(contentType).toBe('application/xml');
    expect(text).toMatch(/^<\?xml version="1\.0" encoding="utf-8"\?>\s*<Webhook><Events><Event><Type>Subscribe<\/Type><Date>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}<\/Date>/);
    expect(text).toContain('<EmailAddress>xml@example.com</EmailAddress><Name>Tom &amp; &lt;Jerry&gt;</Name>');
    expect(text).toContain('<CustomFields><CustomField><Key>[Company]</Key><Value>A &quot;B&quot; &apos;C&apos;</Value></CustomField></CustomFields>');
    expect(text).toContain('<SignupIPAddress>Manually Entered</SignupIPAddress></Event></Events>');
    expect(text.endsWith(`<ListID>${NEWSLETTER}</ListID></Webhook>`)).toBe(true);
  });
});
