// One request per coded error and status of the subscriber side, lists and
// custom fields, auth and faults: the "produced by" column of the code table in
// docs/sandbox-codes.md points here.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { useSandbox, withSandbox } from '../helpers/sandbox.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;
const EARLY = SEED_LIST_IDS.earlyAccess;
const MISSING_LIST = '99999999-9999-4999-8999-999999999999';

const c = useSandbox();

const person = (email: string, extra: Record<string, unknown> = {}) => ({
  EmailAddress: email,
  Name: 'Someone',
  CustomFields: [],
  ConsentToTrack: 'Yes',
  Resubscribe: false,
  ...extra,
});

function expectCoded(answer: { status: number; body: any }, code: number) {
  expect(answer.status).toBe(400);
  expect(answer.body.Code).toBe(code);
  expect(typeof answer.body.Message).toBe('string');
  expect(answer.body.Message.length).toBeGreaterThan(0);
}

function expectStatus(answer: { status: number; body: any }, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ status, message: expect.any(String) });
}

describe('subscriber codes', () => {
  it('1: add refuses a badly formed address', async () => {
    expectCoded(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, person('not-an-address')), 1);
  });
  it('1: add refuses a missing address', async () => {
    expectCoded(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, { Name: 'x', ConsentToTrack: 'Yes' }), 1);
  });
  it('1: update refuses a badly formed current address in the query', async () => {
    expectCoded(await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=nope`, person('ada@example.com')), 1);
  });
  it('1: history refuses a missing email query parameter', async () => {
    expectCoded(await c.call('GET', `/email/subscribers/${NEWSLETTER}/history`), 1);
  });
  it('1: lists-for-email refuses a badly formed address', async () => {
    expectCoded(await c.call('GET', '/email/clients/listsforemail?email=a%40b'), 1);
  });
  it('201: update refuses a new address already on the list', async () => {
    expectCoded(await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=ada@example.com`, person('grace@example.com')), 201);
  });
  it('203: update of an address not on the list', async () => {
    expectCoded(await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=nobody@example.com`, person('nobody@example.com')), 203);
  });
  it('203: history of an address not on the list', async () => {
    expectCoded(await c.call('GET', `/email/subscribers/${NEWSLETTER}/history?email=nobody@example.com`), 203);
  });
  it('204: add refuses a suppressed address without Resubscribe', async () => {
    expectCoded(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, person('blocked@example.com')), 204);
  });
  it('205: add refuses a deleted address without Resubscribe', async () => {
    expectCoded(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, person('deleted@example.com')), 205);
  });
  it('206: add refuses an unsubscribed address without Resubscribe', async () => {
    expectCoded(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, person('unsubscribed@example.com')), 206);
  });
  it('207: add refuses a bounced address without Resubscribe', async () => {
    expectCoded(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, person('bounced@example.com')), 207);
  });
  it('208: add refuses an unconfirmed address without Resubscribe', async () => {
    expectCoded(await c.call('POST', `/email/subscribers/${EARLY}`, person('early@example.com')), 208);
  });
  it('209: import refuses more than 1000 subscribers', async () => {
    const Subscribers = Array.from({ length: 1001 }, (_, i) => person(`many${i}@example.com`));
    expectCoded(await c.call('POST', `/email/subscribers/${NEWSLETTER}/import`, { Subscribers, Resubscribe: false, QueueSubscriptionBasedAutoResponders: false }), 209);
  });
  it('210: import with a failing entry answers ResultData', async () => {
    const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}/import`, {
      Subscribers: [person('fine@example.com'), person('broken')],
      Resubscribe: false,
      QueueSubscriptionBasedAutoResponders: false,
    });
    expectCoded(answer, 210);
    expect(answer.body.ResultData.FailureDetails).toEqual([{ EmailAddress: 'broken', Code: 1, Message: expect.any(String) }]);
  });
  it('211: update refuses an invalid new address', async () => {
    expectCoded(await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=ada@example.com`, person('ada@@example')), 211);
  });
  it('212: import refuses an empty batch', async () => {
    expectCoded(await c.call('POST', `/email/subscribers/${NEWSLETTER}/import`, { Subscribers: [], Resubscribe: false, QueueSubscriptionBasedAutoResponders: false }), 212);
  });
  it('212: import refuses a request without Subscribers', async () => {
    expectCoded(await c.call('POST', `/email/subscribers/${NEWSLETTER}/import`, { Resubscribe: false, QueueSubscriptionBasedAutoResponders: false }), 212);
  });
  it('214: add without ConsentToTrack', async () => {
    expectCoded(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, { EmailAddress: 'x@example.com', Name: 'X', CustomFields: [], Resubscribe: false }), 214);
  });
  it('214: update without ConsentToTrack', async () => {
    expectCoded(await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=ada@example.com`, { EmailAddress: 'ada@example.com', Name: 'Ada', CustomFields: [] }), 214);
  });
  it('214: import with an entry lacking ConsentToTrack', async () => {
    const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}/import`, {
      Subscribers: [person('a1@example.com'), { EmailAddress: 'a2@example.com', Name: 'A2', CustomFields: [] }],
      Resubscribe: false,
      QueueSubscriptionBasedAutoResponders: false,
    });
    expectCoded(answer, 214);
  });
  it('215: add with an invalid ConsentToTrack', async () => {
    expectCoded(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, person('x@example.com', { ConsentToTrack: 'Maybe' })), 215);
  });
  it('215: add refuses Unchanged, which only import entries may carry', async () => {
    expectCoded(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, person('x@example.com', { ConsentToTrack: 'Unchanged' })), 215);
  });
  it('215: update with an invalid ConsentToTrack', async () => {
    expectCoded(await c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=ada@example.com`, person('ada@example.com', { ConsentToTrack: 'yes please' })), 215);
  });
  it('215: import with an entry carrying an invalid ConsentToTrack', async () => {
    const answer = await c.call('POST', `/email/subscribers/${NEWSLETTER}/import`, {
      Subscribers: [person('a1@example.com', { ConsentToTrack: 'Sometimes' })],
      Resubscribe: false,
      QueueSubscriptionBasedAutoResponders: false,
    });
    expectCoded(answer, 215);
  });
});

describe('custom field codes', () => {
  const create = (body: unknown, list: string = NEWSLETTER) => c.call('POST', `/email/lists/${list}/customfields`, body);
  it('254: an empty field name', async () => {
    expectCoded(await create({ FieldName: '  ', DataType: 'Text', VisibleInPreferenceCenter: true }), 254);
  });
  it('254: a field name with brackets', async () => {
    expectCoded(await create({ FieldName: 'Bad [name]', DataType: 'Text', VisibleInPreferenceCenter: true }), 254);
  });
  it('255: a field name that already exists on the list', async () => {
    expectCoded(await create({ FieldName: 'company', DataType: 'Text', VisibleInPreferenceCenter: true }), 255);
  });
  it('256: options for a Text field', async () => {
    expectCoded(await create({ FieldName: 'Colour', DataType: 'Text', FieldOptions: ['Red'], VisibleInPreferenceCenter: true }), 256);
  });
  it('256: options for a Country field (they are generated)', async () => {
    expectCoded(await create({ FieldName: 'Home', DataType: 'Country', FieldOptions: ['France'], VisibleInPreferenceCenter: true }), 256);
  });
  it('257: no options for a MultiSelectMany field', async () => {
    expectCoded(await create({ FieldName: 'Topics', DataType: 'MultiSelectMany', FieldOptions: [], VisibleInPreferenceCenter: true }), 257);
  });
  it('257: null options for a MultiSelectOne field', async () => {
    expectCoded(await create({ FieldName: 'Size', DataType: 'MultiSelectOne', FieldOptions: null, VisibleInPreferenceCenter: true }), 257);
  });
  it('259: an unknown data type', async () => {
    expectCoded(await create({ FieldName: 'When', DataType: 'DateTime', VisibleInPreferenceCenter: true }), 259);
  });
  it('404: a list that does not exist', async () => {
    expectStatus(await create({ FieldName: 'X', DataType: 'Text', VisibleInPreferenceCenter: true }, MISSING_LIST), 404);
  });
});

describe('status answers', () => {
  it('401: no Authorization header', async () => {
    expectStatus(await c.call('GET', '/email/clients/listsforemail?email=ada@example.com', undefined, { key: null }), 401);
  });
  it('401: a wrong key', async () => {
    expectStatus(await c.call('GET', '/email/clients/listsforemail?email=ada@example.com', undefined, { key: 'wrong' }), 401);
  });
  it('401: the key without the Bearer scheme', async () => {
    const answer = await c.call('GET', '/email/clients/listsforemail?email=ada@example.com', undefined, {
      key: null,
      headers: { Authorization: c.sandbox.apiKey },
    });
    expectStatus(answer, 401);
  });
  it('403: a suspended account', async () => {
    c.sandbox.suspendAccount(true);
    expectStatus(await c.call('GET', '/email/clients/listsforemail?email=ada@example.com'), 403);
    c.sandbox.suspendAccount(false);
    expect((await c.call('GET', '/email/clients/listsforemail?email=ada@example.com')).status).toBe(200);
  });
  it('404: add to a list that does not exist', async () => {
    expectStatus(await c.call('POST', `/email/subscribers/${MISSING_LIST}`, person('x@example.com')), 404);
  });
  it('404: an unknown path', async () => {
    expectStatus(await c.call('GET', '/email/unknown'), 404);
  });
  it('400 generic: malformed JSON', async () => {
    expectStatus(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, undefined, { rawBody: '{"EmailAddress": ' }), 400);
  });
  it('400 generic: a wrong type', async () => {
    expectStatus(await c.call('POST', `/email/subscribers/${NEWSLETTER}`, person('x@example.com', { Name: 42 })), 400);
  });
  it('413: a body over the size cap', async () => {
    const small = await withSandbox({ bodyLimitBytes: 1024 });
    try {
      const answer = await small.call('POST', `/email/subscribers/${NEWSLETTER}`, person('x@example.com', { Name: 'n'.repeat(5000) }));
      expectStatus(answer, 413);
    } finally {
      await small.sandbox.stop();
    }
  });
  it('429: beyond the rate limit, with the seconds to wait', async () => {
    c.sandbox.failNext({ status: 429, retryAfterSeconds: 7 });
    const answer = await c.call('GET', '/email/clients/listsforemail?email=ada@example.com');
    expectStatus(answer, 429);
    expect(answer.body.message).toMatch(/\b7 seconds\b/);
  });
  it('500: an injected failure', async () => {
    c.sandbox.failNext({ status: 500 });
    expectStatus(await c.call('GET', '/email/clients/listsforemail?email=ada@example.com'), 500);
  });
});
