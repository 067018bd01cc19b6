// Subscriber endpoints over HTTP: answer shapes and what they do to the state.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, SEED_SENT_CAMPAIGN } from '../../../src/sandbox/index.js';
import { useSandbox, withSandbox } from '../../helpers/sandbox.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;
const CUSTOMERS = SEED_LIST_IDS.customers;
const EARLY = SEED_LIST_IDS.earlyAccess;

const c = useSandbox();

const sub = (listId: string, email: string) => c.sandbox.state().lists[listId].Subscribers[email.toLowerCase()];

describe('add subscriber', () => {
  it('answers 201 with the address as a bare JSON string and stores the subscriber', async () => {
    const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, {
      EmailAddress: 'New.Person@Example.com',
      Name: 'New Person',
      CustomFields: [{ Key: 'Company', Value: 'Acme' }],
      ConsentToTrack: 'No',
      Resubscribe: false,
      RestartSubscriptionBasedAutoresponders: false,
    });
    expect(answer.status).toBe(201);
    expect(answer.text).toBe('"New.Person@Example.com"');
    expect(sub(NEWSLETTER, 'new.person@example.com')).toMatchObject({
      EmailAddress: 'New.Person@Example.com',
      Name: 'New Person',
      State: 'Active',
      ConsentToTrack: 'No',
      CustomFields: { '[Company]': ['Acme'] },
    });
  });

  it('updates name and custom fields of an existing subscriber, keeping fields not supplied', async () => {
    const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, {
      EmailAddress: 'ADA@example.com',
      Name: 'Ada King',
      CustomFields: [{ Key: '[Company]', Value: 'Babbage & Co' }],
      ConsentToTrack: 'Yes',
      Resubscribe: false,
    });
    expect(answer.status).toBe(201);
    const ada = sub(NEWSLETTER, 'ada@example.com');
    expect(ada.Name).toBe('Ada King');
    expect(ada.CustomFields['[Company]']).toEqual(['Babbage & Co']);
    expect(ada.CustomFields['[Plan]']).toEqual(['Pro']);
    expect(ada.DateAdded).toBe('2024-01-10T09:30:00.000Z');
  });

  it('keeps a new subscriber of a confirmed opt-in list Unconfirmed until the verification link is clicked', async () => {
    await c.call('POST', `/email/subscribers/${EARLY}`, { EmailAddress: 'coi@example.com', Name: 'C', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
    expect(sub(EARLY, 'coi@example.com').State).toBe('Unconfirmed');
    c.sandbox.confirmSubscriber(EARLY, 'coi@example.com');
    expect(sub(EARLY, 'coi@example.com').State).toBe('Active');
  });

  it('ignores Clear items on add (Clear is accepted by update and import only)', async () => {
    await c.call('POST', `/email/subscribers/${NEWSLETTER}`, {
      EmailAddress: 'ada@example.com',
      Name: 'Ada Lovelace',
      CustomFields: [{ Key: 'Company', Value: '', Clear: true }],
      ConsentToTrack: 'Yes',
      Resubscribe: false,
    });
    expect(sub(NEWSLETTER, 'ada@example.com').CustomFields['[Company]']).toEqual(['Analytical Engines']);
  });

  it('refuses a custom field value over 250 characters with a generic 400 and changes nothing', async () => {
    const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, {
      EmailAddress: 'long@example.com',
      Name: 'L',
      CustomFields: [{ Key: 'Company', Value: 'x'.repeat(251) }],
      ConsentToTrack: 'Yes',
      Resubscribe: false,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, message: expect.stringMatching(/250/) });
    expect(sub(NEWSLETTER, 'long@example.com')).toBeUndefined();
  });

  it('accepts a value of exactly 250 characters', async () => {
    const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, {
      EmailAddress: 'long@example.com',
      Name: 'L',
      CustomFields: [{ Key: 'Company', Value: 'x'.repeat(250) }],
      ConsentToTrack: 'Yes',
      Resubscribe: false,
    });
    expect(answer.status).toBe(201);
  });

  it('answers a generic 400 for a body that is not an object', async () => {
    const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, ['ada@example.com']);
    expect(answer.body).toEqual({ status: 400, message: expect.any(String) });
  });
});

describe('update subscriber', () => {
  it('answers 200 with an empty body and moves the subscriber to its new address', async () => {
    const answer = await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=${encodeURIComponent('ada@example.com')}`, {
      EmailAddress: 'ada@new.example.com',
      Name: 'Ada',
      CustomFields: [],
      ConsentToTrack: 'No',
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    expect(sub(NEWSLETTER, 'ada@example.com')).toBeUndefined();
    expect(sub(NEWSLETTER, 'ada@new.example.com')).toMatchObject({ Name: 'Ada', ConsentToTrack: 'No', State: 'Active' });
    expect(sub(NEWSLETTER, 'ada@new.example.com').CustomFields['[Company]']).toEqual(['Analytical Engines']);
  });

  it('refuses a body without Name or CustomFields with a generic 400 and changes nothing (both are required)', async () => {
    const before = JSON.stringify(sub(NEWSLETTER, 'ada@example.com'));
    const withoutName = await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=ada@example.com`, { EmailAddress: 'ada@example.com', CustomFields: [], ConsentToTrack: 'Yes' });
    expect(withoutName.status).toBe(400);
    expect(withoutName.body).toEqual({ status: 400, message: expect.stringContaining('Name') });
    const withoutFields = await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=ada@example.com`, { EmailAddress: 'ada@example.com', Name: 'A', ConsentToTrack: 'Yes' });
    expect(withoutFields.body).toEqual({ status: 400, message: expect.stringContaining('CustomFields') });
    expect(JSON.stringify(sub(NEWSLETTER, 'ada@example.com'))).toBe(before);
  });

  it('accepts a body without Resubscribe ("Resubscribe not true" in States and transitions)', async () => {
    const answer = await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=ada@example.com`, { EmailAddress: 'ada@example.com', Name: 'Ada', CustomFields: [], ConsentToTrack: 'Yes' });
    expect(answer.status).toBe(200);
  });

  it('lets an address change only its letter case', async () => {
    const answer = await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=ada@example.com`, { EmailAddress: 'Ada@Example.com', Name: 'Ada Lovelace', CustomFields: [], ConsentToTrack: 'Yes' });
    expect(answer.status).toBe(200);
    expect(sub(NEWSLETTER, 'ada@example.com').EmailAddress).toBe('Ada@Example.com');
  });

  it('does not create a missing subscriber', async () => {
    await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=ghost@example.com`, { EmailAddress: 'ghost@example.com', Name: 'Ghost', CustomFields: [], ConsentToTrack: 'Yes' });
    expect(sub(NEWSLETTER, 'ghost@example.com')).toBeUndefined();
  });
});

describe('subscriber history', () => {
  it('lists campaign interactions with their actions', async () => {
    const answer = await c.call('GET', `/email/subscribers/${NEWSLETTER}/history?email=ada@example.com`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      {
        ID: SEED_SENT_CAMPAIGN.CampaignID,
        Type: 'Campaign',
        Name: SEED_SENT_CAMPAIGN.Name,
        Actions: [
          { Event: 'Open', Date: '2024-02-01 10:05:00', IPAddress: '192.0.2.10', Detail: '' },
          { Event: 'Click', Date: '2024-02-01 10:06:00', IPAddress: '192.0.2.10', Detail: 'https://example.com/welcome' },
        ],
      },
    ]);
  });

  it('answers an empty array for a subscriber without history, whatever the state', async () => {
    const answer = await c.call('GET', `/email/subscribers/${NEWSLETTER}/history?email=bounced@example.com`);
    expect(answer.body).toEqual([]);
  });

  it('finds the subscriber whatever the letter case of the query', async () => {
    const answer = await c.call('GET', `/email/subscribers/${NEWSLETTER}/history?email=GRACE@example.com`);
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(1);
  });
});

describe('lists for an email address', () => {
  it('names every list of the address with its state there', async () => {
    const answer = await c.call('GET', '/email/clients/listsforemail?email=grace@example.com');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { ListID: NEWSLETTER, ListName: 'Newsletter', SubscriberState: 'Active', DateSubscriberAdded: '2024-01-11 09:30:00' },
      { ListID: CUSTOMERS, ListName: 'Customers', SubscriberState: 'Unsubscribed', DateSubscriberAdded: '2024-01-20 09:30:00' },
    ]);
  });

  it('reports every subscriber state', async () => {
    const states = new Set<string>();
    for (const email of ['ada', 'pending', 'unsubscribed', 'bounced', 'deleted']) {
      const answer = await c.call('GET', `/email/clients/listsforemail?email=${email}@example.com`);
      for (const entry of answer.body) states.add(entry.SubscriberState);
    }
    expect([...states].sort()).toEqual(['Active', 'Bounced', 'Deleted', 'Unconfirmed', 'Unsubscribed']);
  });

  it('answers an empty array for an address on no list', async () => {
    expect((await c.call('GET', '/email/clients/listsforemail?email=stranger@example.com')).body).toEqual([]);
  });

  it('reports a new subscriber with the date it was added', async () => {
    const fixed = await withSandbox({ now: () => new Date('2025-03-04T05:06:07Z') });
    try {
      await fixed.call('POST', `/email/subscribers/${CUSTOMERS}`, { EmailAddress: 'fresh@example.com', Name: 'F', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
      const answer = await fixed.call('GET', '/email/clients/listsforemail?email=fresh@example.com');
      expect(answer.body).toEqual([{ ListID: CUSTOMERS, ListName: 'Customers', SubscriberState: 'Active', DateSubscriberAdded: '2025-03-04 05:06:07' }]);
    } finally {
      await fixed.sandbox.stop();
    }
  });
});

// Import realism (service-spec.md "Import subscribers", "Import result"):
// synchronous, all-or-report.
const entry = (email: string, extra: Record<string, unknown> = {}) => ({ EmailAddress: email, Name: email.split('@')[0], CustomFields: [], ConsentToTrack: 'Yes', ...extra });
const importInto = (Subscribers: unknown[], Resubscribe = false, list: string = NEWSLETTER) =>
  c.call('POST', `/email/subscribers/${list}/import`, {
    Subscribers,
    Resubscribe,
    QueueSubscriptionBasedAutoResponders: false,
    RestartSubscriptionBasedAutoresponders: false,
  });
/** A subscriber of a list as stored (by the address as given). */
const stored = (email: string, list: string = NEWSLETTER) => c.sandbox.state().lists[list].Subscribers[email];

describe('import subscribers', () => {
  it('answers 200 with new and existing counts when every entry is accepted', async () => {
    const answer = await importInto([entry('n1@example.com'), entry('n2@example.com'), entry('ADA@example.com')]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      TotalUniqueEmailsSubmitted: 3,
      TotalExistingSubscribers: 1,
      TotalNewSubscribers: 2,
      DuplicateEmailsInSubmission: [],
      FailureDetails: [],
    });
    expect(stored('n1@example.com').State).toBe('Active');
  });

  it('imports 1000 entries in one call', async () => {
    const answer = await importInto(Array.from({ length: 1000 }, (_, i) => entry(`bulk${i}@example.com`)));
    expect(answer.status).toBe(200);
    expect(answer.body.TotalNewSubscribers).toBe(1000);
    expect(Object.keys(c.sandbox.state().lists[NEWSLETTER].Subscribers)).toHaveLength(1008);
  });

  it('reports addresses submitted more than once, whatever their case, and imports the first occurrence', async () => {
    const answer = await importInto([
      entry('dup@example.com', { Name: 'First' }),
      entry('DUP@example.com', { Name: 'Second' }),
      entry('dup@example.com', { Name: 'Third' }),
      entry('other@example.com'),
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ TotalUniqueEmailsSubmitted: 2, TotalNewSubscribers: 2, DuplicateEmailsInSubmission: ['dup@example.com'] });
    expect(stored('dup@example.com').Name).toBe('First');
  });

  it('answers 210 with ResultData listing each failure, and imports the other entries', async () => {
    const answer = await importInto([
      entry('ok@example.com'),
      entry('not an address'),
      entry('unsubscribed@example.com'),
      entry('bounced@example.com'),
      entry('deleted@example.com'),
      entry('blocked@example.com'),
      entry('pending@example.com'),
      entry('toolong@example.com', { CustomFields: [{ Key: 'Company', Value: 'y'.repeat(251) }] }),
      entry('grace@example.com'),
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.Code).toBe(210);
    expect(answer.body.Message).toEqual(expect.any(String));
    const result = answer.body.ResultData;
    expect(result).toMatchObject({ TotalUniqueEmailsSubmitted: 9, TotalNewSubscribers: 1, TotalExistingSubscribers: 1, DuplicateEmailsInSubmission: [] });
    expect(result.FailureDetails.map((f: any) => [f.EmailAddress, f.Code])).toEqual([
      ['not an address', 1],
      ['unsubscribed@example.com', 206],
      ['bounced@example.com', 207],
      ['deleted@example.com', 205],
      ['blocked@example.com', 204],
      ['pending@example.com', 208],
      ['toolong@example.com', 400],
    ]);
    for (const f of result.FailureDetails) expect(f.Message).toEqual(expect.any(String));
    // Counts add up: every unique address is new, existing or failed.
    expect(result.TotalNewSubscribers + result.TotalExistingSubscribers + result.FailureDetails.length).toBe(result.TotalUniqueEmailsSubmitted);
    expect(stored('ok@example.com').State).toBe('Active');
    expect(stored('unsubscribed@example.com').State).toBe('Unsubscribed');
    expect(stored('toolong@example.com')).toBeUndefined();
  });

  it('replaces an existing name with the Name sent, an empty one too, and refuses an entry without Name (service-spec.md "Import request")', async () => {
    expect((await importInto([entry('ada@example.com', { Name: '' })])).status).toBe(200);
    expect(stored('ada@example.com').Name).toBe('');
    const missing = await importInto([entry('ada@example.com', { Name: undefined })]);
    expect(missing.status).toBe(400);
    expect(missing.body.Code).toBeUndefined();
  });

  it('ignores a key the list does not define and a value that is none of a field\'s options, answering 200 (the spec gives no code for them)', async () => {
    const answer = await importInto([
      entry('ada@example.com', { CustomFields: [{ Key: 'Shoe Size', Value: '42' }, { Key: 'Plan', Value: 'Gold' }, { Key: 'Company', Value: 'Acme' }] }),
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ TotalExistingSubscribers: 1, FailureDetails: [] });
    const fields = stored('ada@example.com').CustomFields;
    expect(fields['[Company]']).toEqual(['Acme']);
    expect(Object.keys(fields)).not.toContain('[ShoeSize]');
    expect(fields['[Plan]']).not.toEqual(['Gold']);
  });

  it('re-adds inactive and suppressed addresses when Resubscribe is true', async () => {
    const answer = await importInto([entry('unsubscribed@example.com'), entry('blocked@example.com')], true);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ TotalExistingSubscribers: 1, TotalNewSubscribers: 1 });
    expect(stored('unsubscribed@example.com').State).toBe('Active');
    expect(stored('blocked@example.com').State).toBe('Active');
  });

  it('keeps the consent of an existing subscriber for Unchanged and gives a new one No', async () => {
    await importInto([entry('ada@example.com', { ConsentToTrack: 'Unchanged' }), entry('fresh@example.com', { ConsentToTrack: 'Unchanged' })]);
    expect(stored('ada@example.com').ConsentToTrack).toBe('Yes');
    expect(stored('fresh@example.com').ConsentToTrack).toBe('No');
  });

  it('changes nothing when the consent of any entry is missing or invalid (214, 215)', async () => {
    const missing = await importInto([entry('a@example.com'), entry('b@example.com', { ConsentToTrack: undefined })]);
    expect(missing.body.Code).toBe(214);
    expect(missing.body.Message).toContain('b@example.com');
    const invalid = await importInto([entry('a@example.com'), entry('b@example.com', { ConsentToTrack: 'yes' })]);
    expect(invalid.body.Code).toBe(215);
    expect(stored('a@example.com')).toBeUndefined();
  });

  it('refuses 1001 entries (209) and changes nothing', async () => {
    const answer = await importInto(Array.from({ length: 1001 }, (_, i) => entry(`over${i}@example.com`)));
    expect(answer.body.Code).toBe(209);
    expect(stored('over0@example.com')).toBeUndefined();
  });

  it('answers a generic 400 when an entry is not an object', async () => {
    const answer = await importInto([entry('a@example.com'), 'b@example.com']);
    expect(answer.body).toEqual({ status: 400, message: expect.stringContaining('Subscribers[1]') });
  });

  it('counts an Unconfirmed subscriber of a confirmed opt-in list as existing when Resubscribe is true', async () => {
    const answer = await importInto([entry('early@example.com')], true, EARLY);
    expect(answer.body).toMatchObject({ TotalExistingSubscribers: 1 });
    expect(stored('early@example.com', EARLY).State).toBe('Unconfirmed');
  });
});
