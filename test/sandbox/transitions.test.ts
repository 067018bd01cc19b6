// One test per subscriber row of service-spec.md "States and transitions",
// checking the next state, the other effects and the webhook events.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { useSandbox } from '../helpers/sandbox.js';
import { startScriptedReceiver, waitUntil, type ScriptedReceiver } from '../helpers/webhooks.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;
const EARLY = SEED_LIST_IDS.earlyAccess;

let receiver: ScriptedReceiver;
beforeEach(async () => {
  receiver = await startScriptedReceiver();
});
afterEach(async () => {
  await receiver.close();
});
const c = useSandbox(() => ({
  webhookIntervalMs: 10,
  webhooks: [
    { listId: NEWSLETTER, url: receiver.url, format: 'json' },
    { listId: EARLY, url: receiver.url, format: 'json' },
  ],
}));

const sub = (listId: string, email: string) => c.sandbox.state().lists[listId].Subscribers[email];
const body = (email: string, extra: Record<string, unknown> = {}) => ({
  EmailAddress: email,
  Name: 'Renamed',
  CustomFields: [{ Key: 'Company', Value: 'NewCo' }],
  ConsentToTrack: 'Yes',
  Resubscribe: false,
  ...extra,
});

/** Waits until the events are delivered, then returns the types received. */
async function eventTypes(count: number): Promise<string[]> {
  await waitUntil(() => receiver.acceptedEvents().length >= count, `${count} webhook events`);
  return receiver.acceptedEvents().map((e) => `${e.Type} ${e.EmailAddress}`);
}

/** A marker event that proves nothing else was queued before it. */
async function eventsUpTo(marker: string): Promise<string[]> {
  await c.call('POST', `/email/subscribers/${NEWSLETTER}`, body(marker));
  await waitUntil(() => receiver.acceptedEvents().some((e) => e.EmailAddress === marker), 'the marker event');
  return receiver.acceptedEvents().map((e) => `${e.Type} ${e.EmailAddress}`).filter((e) => !e.endsWith(marker));
}

describe('add subscriber on an inactive, unsubscribed or suppressed subscriber', () => {
  for (const [email, state] of [
    ['unsubscribed@example.com', 'Unsubscribed'],
    ['bounced@example.com', 'Bounced'],
    ['deleted@example.com', 'Deleted'],
  ] as const) {
    it(`Resubscribe true: ${state} → Active (re-added) with name and custom fields updated, Subscribe fires`, async () => {
      const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, body(email, { Resubscribe: true }));
      expect(answer.status).toBe(201);
      expect(sub(NEWSLETTER, email)).toMatchObject({ State: 'Active', Name: 'Renamed', CustomFields: { '[Company]': ['NewCo'] } });
      expect(await eventTypes(1)).toEqual([`Subscribe ${email}`]);
    });
  }

  it('Resubscribe true: a suppressed address is re-added and leaves the suppression list', async () => {
    const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, body('suppressed@example.com', { Resubscribe: true }));
    expect(answer.status).toBe(201);
    expect(sub(NEWSLETTER, 'suppressed@example.com').State).toBe('Active');
    expect(c.sandbox.state().suppression['suppressed@example.com']).toBeUndefined();
    const fresh = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, body('blocked@example.com', { Resubscribe: true }));
    expect(fresh.status).toBe(201);
    expect(sub(NEWSLETTER, 'blocked@example.com').State).toBe('Active');
  });

  for (const [email, code] of [
    ['unsubscribed@example.com', 206],
    ['bounced@example.com', 207],
    ['deleted@example.com', 205],
    ['suppressed@example.com', 204],
  ] as const) {
    it(`Resubscribe false: ${email} unchanged, not re-added (code ${code}), no event`, async () => {
      const before = structuredClone(sub(NEWSLETTER, email));
      const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, body(email, { Resubscribe: false }));
      expect(answer.body.Code).toBe(code);
      expect(sub(NEWSLETTER, email)).toEqual(before);
      expect(await eventsUpTo('marker@example.com')).toEqual([]);
    });
  }
});

describe('update subscriber on an inactive subscriber', () => {
  it('Resubscribe true: re-added (Active), Update and Subscribe fire', async () => {
    const answer = await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=unsubscribed@example.com`, body('unsubscribed@example.com', { Resubscribe: true }));
    expect(answer.status).toBe(200);
    expect(sub(NEWSLETTER, 'unsubscribed@example.com')).toMatchObject({ State: 'Active', Name: 'Renamed' });
    expect(await eventTypes(2)).toEqual(['Update unsubscribed@example.com', 'Subscribe unsubscribed@example.com']);
  });

  it('Resubscribe true on a suppressed subscriber removes the address from the suppression list', async () => {
    await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=suppressed@example.com`, body('suppressed@example.com', { Resubscribe: true }));
    expect(c.sandbox.state().suppression['suppressed@example.com']).toBeUndefined();
    expect(sub(NEWSLETTER, 'suppressed@example.com').State).toBe('Active');
  });

  for (const resubscribe of [false, undefined]) {
    it(`Resubscribe ${resubscribe}: state unchanged, the update applies anyway and Update fires`, async () => {
      const answer = await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=bounced@example.com`, body('bounced@example.com', { Resubscribe: resubscribe }));
      expect(answer.status).toBe(200);
      expect(sub(NEWSLETTER, 'bounced@example.com')).toMatchObject({ State: 'Bounced', Name: 'Renamed', CustomFields: { '[Company]': ['NewCo'] } });
      const events = await eventTypes(1);
      expect(events).toEqual(['Update bounced@example.com']);
      expect(receiver.acceptedEvents()[0]).toMatchObject({ State: 'Bounced', OldEmailAddress: 'bounced@example.com' });
    });
  }

  it('an active subscriber: Update fires with the old and new address', async () => {
    await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=alan@example.com`, body('turing@example.com'));
    await eventTypes(1);
    expect(receiver.acceptedEvents()[0]).toMatchObject({ Type: 'Update', OldEmailAddress: 'alan@example.com', EmailAddress: 'turing@example.com', State: 'Active' });
  });

  it('a missing subscriber is not created (203)', async () => {
    const answer = await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=ghost@example.com`, body('ghost@example.com', { Resubscribe: true }));
    expect(answer.body.Code).toBe(203);
    expect(sub(NEWSLETTER, 'ghost@example.com')).toBeUndefined();
  });
});

describe('a new subscriber (none → in the list)', () => {
  it('add on a single opt-in list: Active, Subscribe fires with the manual-entry marker', async () => {
    await c.call('POST', `/email/subscribers/${NEWSLETTER}`, body('new@example.com'));
    expect(sub(NEWSLETTER, 'new@example.com').State).toBe('Active');
    await eventTypes(1);
    expect(receiver.acceptedEvents()[0]).toEqual({
      Type: 'Subscribe',
      Date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      EmailAddress: 'new@example.com',
      Name: 'Renamed',
      CustomFields: [{ Key: '[Company]', Value: 'NewCo' }],
      SignupIPAddress: 'Manually Entered',
    });
  });

  it('import on a single opt-in list: Active, Subscribe fires', async () => {
    await c.call('POST', `/email/subscribers/${NEWSLETTER}/import`, { Subscribers: [body('imported@example.com')], Resubscribe: false, QueueSubscriptionBasedAutoResponders: false });
    expect(sub(NEWSLETTER, 'imported@example.com').State).toBe('Active');
    expect(await eventTypes(1)).toEqual(['Subscribe imported@example.com']);
  });

  it('add or import on a confirmed opt-in list: Unconfirmed (verification email), Subscribe only when confirmed', async () => {
    await c.call('POST', `/email/subscribers/${EARLY}`, body('coi1@example.com'));
    await c.call('POST', `/email/subscribers/${EARLY}/import`, { Subscribers: [body('coi2@example.com')], Resubscribe: false, QueueSubscriptionBasedAutoResponders: false });
    expect(sub(EARLY, 'coi1@example.com').State).toBe('Unconfirmed');
    expect(sub(EARLY, 'coi2@example.com').State).toBe('Unconfirmed');
    c.sandbox.confirmSubscriber(EARLY, 'coi1@example.com');
    expect(await eventTypes(1)).toEqual(['Subscribe coi1@example.com']);
  });

  it('an existing active subscriber re-added: Update fires', async () => {
    await c.call('POST', `/email/subscribers/${NEWSLETTER}`, body('ada@example.com'));
    expect(await eventTypes(1)).toEqual(['Update ada@example.com']);
  });
});

describe('moves to an inactive state', () => {
  it('unsubscribing an active subscriber fires Deactivate with the new state', async () => {
    c.sandbox.unsubscribe(NEWSLETTER, 'grace@example.com');
    await eventTypes(1);
    expect(receiver.acceptedEvents()[0]).toMatchObject({ Type: 'Deactivate', EmailAddress: 'grace@example.com', State: 'Unsubscribed' });
    expect(sub(NEWSLETTER, 'grace@example.com').State).toBe('Unsubscribed');
  });

  it('a bounce fires Deactivate with State Bounced', async () => {
    c.sandbox.setSubscriberState(NEWSLETTER, 'alan@example.com', 'Bounced');
    await eventTypes(1);
    expect(receiver.acceptedEvents()[0]).toMatchObject({ Type: 'Deactivate', State: 'Bounced' });
  });
});
