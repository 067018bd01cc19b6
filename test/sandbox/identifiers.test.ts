// Identifiers in paths and bodies of the wrong shape on the campaign side
// (service-spec.md "Conventions": identifiers are UUIDs; "Errors": a generic
// 400 for an invalid request).
import { describe, expect, it } from 'vitest';
import { SEED_CAMPAIGN_IDS, SEED_SEGMENT_IDS, SEED_SMART_EMAIL_IDS } from '../../src/sandbox/seed-campaigns.js';
import { useSandbox } from '../helpers/sandbox.js';

const MISSING_LIST = '99999999-9999-4999-8999-999999999999';

const c = useSandbox();

const addBody = (email: string) => ({ EmailAddress: email, Name: 'Someone', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
const importBody = (entries: unknown[]) => ({ Subscribers: entries, Resubscribe: false, QueueSubscriptionBasedAutoResponders: false });

function expectGeneric400(answer: { status: number; body: any }, mentions: string) {
  expect(answer.status).toBe(400);
  expect(answer.body).toEqual({ status: 400, message: expect.stringContaining(mentions) });
}

describe('identifiers in paths (spec "Conventions": UUIDs)', () => {
  it('answers a list id that is not a UUID with a generic 400, and an unknown UUID with 404, on every list-bound call', async () => {
    const calls: [string, string, unknown][] = [
      ['POST', '/email/subscribers/{id}', addBody('x@example.com')],
      ['PUT', '/email/subscribers/{id}?email=ada@example.com', addBody('ada@example.com')],
      ['POST', '/email/subscribers/{id}/import', importBody([])],
      ['GET', '/email/subscribers/{id}/history?email=ada@example.com', undefined],
      ['POST', '/email/lists/{id}/customfields', { FieldName: 'X', DataType: 'Text', FieldOptions: [], VisibleInPreferenceCenter: true }],
      ['POST', '/email/segments/{id}', { Title: 'X' }],
    ];
    for (const [method, path, body] of calls) {
      const malformed = await c.call(method, path.replace('{id}', 'not-a-list'), body);
      expect(malformed.body, `${method} ${path}`).toEqual({ status: 400, message: expect.stringContaining('not a UUID') });
      const unknown = await c.call(method, path.replace('{id}', MISSING_LIST), body);
      expect(unknown.status, `${method} ${path}`).toBe(404);
    }
  });

  it('reads UUIDs in upper case as the same resource', async () => {
    const segment = await c.call('GET', `/email/segments/${SEED_SEGMENT_IDS.newsletterPro.toUpperCase()}`);
    expect(segment.status).toBe(200);
    expect(segment.body.SegmentID).toBe(SEED_SEGMENT_IDS.newsletterPro);
    expect((await c.call('GET', `/email/campaigns/${SEED_CAMPAIGN_IDS.welcome.toUpperCase()}/summary`)).status).toBe(200);
    expect((await c.call('GET', `/email/transactional/smartEmail/${SEED_SMART_EMAIL_IDS.passwordReset.toUpperCase()}`)).status).toBe(200);
    const draft = await c.call('POST', '/email/campaigns', {
      Name: 'Upper-case segment',
      Subject: 'S',
      FromName: 'F',
      FromEmail: 'f@example.com',
      ReplyTo: 'r@example.com',
      HtmlUrl: 'https://example.com/c.html',
      SegmentIDs: [SEED_SEGMENT_IDS.newsletterPro.toUpperCase()],
    });
    expect(draft.status, draft.text).toBe(200);
    expect(draft.body).toEqual({ [SEED_SEGMENT_IDS.newsletterPro]: '' });
  });
});

describe('bodies of the wrong shape on the campaign side', () => {
  it('send preview: PreviewRecipients that is not an array, or a body that is not an object, is a generic 400 (not 370)', async () => {
    const path = `/email/campaigns/${SEED_CAMPAIGN_IDS.autumnDraft}/sendpreview`;
    expectGeneric400(await c.call('POST', path, { PreviewRecipients: 'someone@example.com' }), 'PreviewRecipients');
    expectGeneric400(await c.call('POST', path, ['someone@example.com']), 'JSON object');
    expect((await c.call('POST', path, { PreviewRecipients: [] })).body.Code).toBe(370);
  });

  it('add rule group: no body is a generic 400 (the body is required); an object without usable Rules is 277', async () => {
    const path = `/email/segments/${SEED_SEGMENT_IDS.newsletterRecentExample}/rules`;
    expectGeneric400(await c.call('POST', path), 'JSON object');
    expect((await c.call('POST', path, {})).body.Code).toBe(277);
  });
});
