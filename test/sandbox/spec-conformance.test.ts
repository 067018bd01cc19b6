// Required fields and types of the subscriber side, where the sandbox once
// accepted what service-spec.md's schemas refuse: "Subscriber", "Custom field
// value", "Import request", "Custom field definition". Each refusal is a
// generic 400 (the spec gives no code) and changes nothing.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { useSandbox } from '../helpers/sandbox.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;

const c = useSandbox();

const subscribers = () => c.sandbox.state().lists[NEWSLETTER].Subscribers;

/** A complete add body (service-spec.md "Subscriber"), minus `omit`. */
function addBody(email: string, omit: string[] = [], extra: Record<string, unknown> = {}) {
  const body: Record<string, unknown> = { EmailAddress: email, Name: 'Someone', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false, ...extra };
  for (const field of omit) delete body[field];
  return body;
}

/** A complete import body (service-spec.md "Import request"), minus `omit`. */
function importBody(entries: unknown[], omit: string[] = []) {
  const body: Record<string, unknown> = { Subscribers: entries, Resubscribe: false, QueueSubscriptionBasedAutoResponders: false, RestartSubscriptionBasedAutoresponders: false };
  for (const field of omit) delete body[field];
  return body;
}

function expectGeneric400(answer: { status: number; body: any }, mentions: string) {
  expect(answer.status).toBe(400);
  expect(answer.body).toEqual({ status: 400, message: expect.stringContaining(mentions) });
}

describe('required fields of the subscriber (spec "Subscriber")', () => {
  for (const field of ['Name', 'CustomFields', 'Resubscribe']) {
    it(`add refuses a body without ${field} with a generic 400 and adds nobody`, async () => {
      expectGeneric400(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, addBody('partial@example.com', [field])), field);
      expect(subscribers()['partial@example.com']).toBeUndefined();
    });
  }

  it('add accepts a body without RestartSubscriptionBasedAutoresponders ("Default false when omitted")', async () => {
    expect((await c.call('POST', `/email/subscribers/${NEWSLETTER}`, addBody('restart@example.com'))).status).toBe(201);
  });

  it('add refuses Resubscribe given as a string', async () => {
    expectGeneric400(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, addBody('s@example.com', [], { Resubscribe: 'true' })), 'Resubscribe');
  });
});

describe('custom field values (spec "Custom field value")', () => {
  it('refuses a Value that is not a string (a number) with a generic 400', async () => {
    const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, addBody('n@example.com', [], { CustomFields: [{ Key: 'Age', Value: 42 }] }));
    expectGeneric400(answer, 'Value');
    expect(subscribers()['n@example.com']).toBeUndefined();
  });

  it('refuses an item without Value (Value is required)', async () => {
    expectGeneric400(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, addBody('n@example.com', [], { CustomFields: [{ Key: 'Age' }] })), 'Value');
  });

  it('counts the 250-character limit in characters, so 250 emoji fit and 251 do not', async () => {
    const fits = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, addBody('e1@example.com', [], { CustomFields: [{ Key: 'Company', Value: '😀'.repeat(250) }] }));
    expect(fits.status).toBe(201);
    expect(subscribers()['e1@example.com'].CustomFields['[Company]']).toEqual(['😀'.repeat(250)]);
    const over = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, addBody('e2@example.com', [], { CustomFields: [{ Key: 'Company', Value: '😀'.repeat(251) }] }));
    expectGeneric400(over, '251 characters');
  });
});

describe('required fields of the import request (spec "Import request")', () => {
  const entry = (email: string) => ({ EmailAddress: email, Name: 'I', CustomFields: [], ConsentToTrack: 'Yes' });

  for (const field of ['Resubscribe', 'QueueSubscriptionBasedAutoResponders']) {
    it(`refuses a request without ${field} with a generic 400 and imports nothing`, async () => {
      expectGeneric400(await c.call('POST', `/email/subscribers/${NEWSLETTER}/import`, importBody([entry('i1@example.com')], [field])), field);
      expect(subscribers()['i1@example.com']).toBeUndefined();
    });
  }

  it('accepts a request without RestartSubscriptionBasedAutoresponders ("As above": default false)', async () => {
    const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}/import`, importBody([entry('i2@example.com')], ['RestartSubscriptionBasedAutoresponders']));
    expect(answer.status).toBe(200);
  });

  for (const field of ['Name', 'CustomFields']) {
    it(`refuses an entry without ${field} with a generic 400 naming the entry, and imports nothing`, async () => {
      const partial: Record<string, unknown> = entry('i4@example.com');
      delete partial[field];
      const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}/import`, importBody([entry('i3@example.com'), partial]));
      expectGeneric400(answer, 'Subscribers[1]');
      expect(subscribers()['i3@example.com']).toBeUndefined();
    });
  }

  it('reports each entry without an address as its own failure (code 1), never as a duplicate', async () => {
    const noAddress = { Name: 'N', CustomFields: [], ConsentToTrack: 'Yes' };
    const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}/import`, importBody([noAddress, noAddress, entry('i5@example.com')]));
    expect(answer.body.Code).toBe(210);
    expect(answer.body.ResultData).toMatchObject({
      TotalUniqueEmailsSubmitted: 3,
      TotalNewSubscribers: 1,
      DuplicateEmailsInSubmission: [],
      FailureDetails: [
        { EmailAddress: '', Code: 1, Message: expect.any(String) },
        { EmailAddress: '', Code: 1, Message: expect.any(String) },
      ],
    });
  });
});

describe('custom field definition (spec "Custom field definition")', () => {
  it('refuses a definition without VisibleInPreferenceCenter with a generic 400 and creates nothing', async () => {
    const answer = await c.call('POST', `/email/lists/${NEWSLETTER}/customfields`, { FieldName: 'Colour', DataType: 'Text', FieldOptions: [] });
    expectGeneric400(answer, 'VisibleInPreferenceCenter');
    expect(c.sandbox.state().lists[NEWSLETTER].CustomFields.some((f) => f.FieldName === 'Colour')).toBe(false);
  });
});
