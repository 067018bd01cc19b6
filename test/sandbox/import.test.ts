// Import realism (service-spec.md "Import subscribers", "Import result"):
// synchronous, all-or-report.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { withSandbox, type SandboxClient } from './sandbox-client.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;
const EARLY = SEED_LIST_IDS.earlyAccess;

let c: SandboxClient;
beforeEach(async () => {
  c = await withSandbox();
});
afterEach(async () => {
  await c.sandbox.stop();
});

const entry = (email: string, extra: Record<string, unknown> = {}) => ({ EmailAddress: email, Name: email.split('@')[0], CustomFields: [], ConsentToTrack: 'Yes', ...extra });
const importInto = (Subscribers: unknown[], Resubscribe = false, list: string = NEWSLETTER) =>
  c.call('POST', `/email/subscribers/${list}/import`, {
    Subscribers,
    Resubscribe,
    QueueSubscriptionBasedAutoResponders: false,
    RestartSubscriptionBasedAutoresponders: false,
  });
const sub = (email: string, list: string = NEWSLETTER) => c.sandbox.state().lists[list].Subscribers[email];

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
    expect(sub('n1@example.com').State).toBe('Active');
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
    expect(sub('dup@example.com').Name).toBe('First');
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
    expect(sub('ok@example.com').State).toBe('Active');
    expect(sub('unsubscribed@example.com').State).toBe('Unsubscribed');
    expect(sub('toolong@example.com')).toBeUndefined();
  });

  it('re-adds inactive and suppressed addresses when Resubscribe is true', async () => {
    const answer = await importInto([entry('unsubscribed@example.com'), entry('blocked@example.com')], true);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ TotalExistingSubscribers: 1, TotalNewSubscribers: 1 });
    expect(sub('unsubscribed@example.com').State).toBe('Active');
    expect(sub('blocked@example.com').State).toBe('Active');
  });

  it('keeps the consent of an existing subscriber for Unchanged and gives a new one No', async () => {
    await importInto([entry('ada@example.com', { ConsentToTrack: 'Unchanged' }), entry('fresh@example.com', { ConsentToTrack: 'Unchanged' })]);
    expect(sub('ada@example.com').ConsentToTrack).toBe('Yes');
    expect(sub('fresh@example.com').ConsentToTrack).toBe('No');
  });

  it('changes nothing when the consent of any entry is missing or invalid (214, 215)', async () => {
    const missing = await importInto([entry('a@example.com'), entry('b@example.com', { ConsentToTrack: undefined })]);
    expect(missing.body.Code).toBe(214);
    expect(missing.body.Message).toContain('b@example.com');
    const invalid = await importInto([entry('a@example.com'), entry('b@example.com', { ConsentToTrack: 'yes' })]);
    expect(invalid.body.Code).toBe(215);
    expect(sub('a@example.com')).toBeUndefined();
  });

  it('refuses 1001 entries (209) and changes nothing', async () => {
    const answer = await importInto(Array.from({ length: 1001 }, (_, i) => entry(`over${i}@example.com`)));
    expect(answer.body.Code).toBe(209);
    expect(sub('over0@example.com')).toBeUndefined();
  });

  it('answers a generic 400 when an entry is not an object', async () => {
    const answer = await importInto([entry('a@example.com'), 'b@example.com']);
    expect(answer.body).toEqual({ status: 400, message: expect.stringContaining('Subscribers[1]') });
  });

  it('counts an Unconfirmed subscriber of a confirmed opt-in list as existing when Resubscribe is true', async () => {
    const answer = await importInto([entry('early@example.com')], true, EARLY);
    expect(answer.body).toMatchObject({ TotalExistingSubscribers: 1 });
    expect(sub('early@example.com', EARLY).State).toBe('Unconfirmed');
  });
});
