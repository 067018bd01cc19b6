// Segment endpoints over HTTP (service-spec.md "Segment", "Endpoints" →
// "Segments", codes 272-284): one test per produced code, and membership
// computed from the list's subscribers.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../../src/sandbox/index.js';
import { SEED_SEGMENT_IDS } from '../../../src/sandbox/seed-campaigns.js';
import { useSandbox } from '../../helpers/sandbox.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;
const S = SEED_SEGMENT_IDS;
const MISSING = '99999999-9999-4999-8999-999999999999';

const c = useSandbox();

function expectCoded(answer: { status: number; body: any }, code: number) {
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ Code: code, Message: expect.any(String) });
}

const rule = (RuleType: string, Clause: string) => ({ RuleType, Clause });

async function create(title: string, RuleGroups?: unknown, listId: string = NEWSLETTER): Promise<string> {
  const answer = await c.call('POST', `/email/segments/${listId}`, RuleGroups === undefined ? { Title: title } : { Title: title, RuleGroups });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const activeCount = async (id: string) => (await c.call('GET', `/email/segments/${id}`)).body.ActiveSubscribers;

describe('create segment', () => {
  it('answers 201 with the new id as a bare JSON string, and get shows it', async () => {
    const answer = await c.call('POST', `/email/segments/${NEWSLETTER}`, { Title: 'Example people', RuleGroups: [{ Rules: [rule('EmailAddress', 'CONTAINS @example.com')] }] });
    expect(answer.status).toBe(201);
    expect(answer.text).toMatch(/^"[0-9a-f-]{36}"$/);
    const got = await c.call('GET', `/email/segments/${answer.body}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      ListID: NEWSLETTER,
      SegmentID: answer.body,
      Title: 'Example people',
      // Eight subscribers hold @example.com addresses; only the three Active ones count.
      ActiveSubscribers: 3,
      RuleGroups: [{ Rules: [rule('EmailAddress', 'CONTAINS @example.com')] }],
    });
  });

  it('creates a segment without rules, whose members are all active subscribers', async () => {
    const id = await create('Everyone');
    expect(await activeCount(id)).toBe(3);
  });

  it('answers 404 in the status shape for a list that does not exist', async () => {
    const answer = await c.call('POST', `/email/segments/${MISSING}`, { Title: 'x' });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ status: 404, message: expect.any(String) });
  });

  it('gives 273 for an empty or missing title', async () => {
    expectCoded(await c.call('POST', `/email/segments/${NEWSLETTER}`, { Title: '  ' }), 273);
    expectCoded(await c.call('POST', `/email/segments/${NEWSLETTER}`, {}), 273);
  });

  it('gives 275 for a title already used in the list, whatever its case, but not in another list', async () => {
    expectCoded(await c.call('POST', `/email/segments/${NEWSLETTER}`, { Title: 'PRO PLAN' }), 275);
    await create('Pro plan', undefined, SEED_LIST_IDS.earlyAccess);
  });

  it('gives 277 with the problems in ResultData when rules cannot be parsed, and creates nothing', async () => {
    const before = Object.keys(c.sandbox.state().segments).length;
    const answer = await c.call('POST', `/email/segments/${NEWSLETTER}`, {
      Title: 'Broken',
      RuleGroups: [{ Rules: [rule('EmailAddress', 'CONTAINS @a.com'), rule('EmailAddress', 'LIKE %a%')] }, { Rules: [rule('DateSubscribed', 'AFTER 31/12/2023')] }],
    });
    expectCoded(answer, 277);
    expect(answer.body.ResultData).toEqual([
      expect.objectContaining({ RuleGroupIndex: 0, RuleIndex: 1, RuleType: 'EmailAddress', Clause: 'LIKE %a%', Problem: expect.any(String) }),
      expect.objectContaining({ RuleGroupIndex: 1, RuleIndex: 0, Clause: 'AFTER 31/12/2023' }),
    ]);
    expect(Object.keys(c.sandbox.state().segments)).toHaveLength(before);
  });

  it('gives 283 once the account holds as many API segments as its limit', async () => {
    // The seed holds three API segments; lower the limit to four to reach it cheaply.
    c.sandbox.state().campaignAccount!.segmentLimit = 4;
    await create('Fourth');
    expectCoded(await c.call('POST', `/email/segments/${NEWSLETTER}`, { Title: 'Fifth' }), 283);
  });
});

describe('get segment', () => {
  it('answers a generic 400 for a malformed id and 404 for an unknown one', async () => {
    const bad = await c.call('GET', '/email/segments/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: 400, message: expect.any(String) });
    const missing = await c.call('GET', `/email/segments/${MISSING}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ status: 404, message: expect.any(String) });
  });
});

describe('membership computed from data', () => {
  it('joins rules of a group by OR', async () => {
    const id = await create('Ada or Alan', [{ Rules: [rule('EmailAddress', 'CONTAINS ada@'), rule('EmailAddress', 'EQUALS alan@example.com')] }]);
    expect(await activeCount(id)).toBe(2);
  });

  it('joins groups by AND', async () => {
    // Ada (10 Jan), Grace (11 Jan), Alan (12 Jan) are the Active subscribers.
    const id = await create('Example and late', [
      { Rules: [rule('EmailAddress', 'CONTAINS ada@'), rule('EmailAddress', 'CONTAINS grace@'), rule('EmailAddress', 'CONTAINS alan@')] },
      { Rules: [rule('DateSubscribed', 'AFTER 2024/01/10')] },
    ]);
    expect(await activeCount(id)).toBe(2);
  });

  it('follows the list: a new active subscriber who matches joins, an unsubscribed member leaves', async () => {
    const id = await create('Gmail', [{ Rules: [rule('EmailAddress', 'CONTAINS @gmail.com')] }]);
    expect(await activeCount(id)).toBe(0);
    const added = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, { EmailAddress: 'new@gmail.com', Name: 'N', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
    expect(added.status).toBe(201);
    expect(await activeCount(id)).toBe(1);
    c.sandbox.unsubscribe(NEWSLETTER, 'new@gmail.com');
    expect(await activeCount(id)).toBe(0);
  });

  it('matches custom field rules by the field Key', async () => {
    expect(await activeCount(S.newsletterPro)).toBe(1);
    const id = await create('News readers', [{ Rules: [rule('[Interests]', 'EQUALS News'), rule('[Interests]', 'EQUALS Product updates')] }]);
    expect(await activeCount(id)).toBe(2);
  });

  it('computes the seeded engagement segments from opens and clicks in subscriber histories', async () => {
    // Ada and Grace opened the welcome campaign; Alan did not.
    expect(await activeCount(S.newsletterEngaged)).toBe(2);
    expect(await activeCount(S.newsletterUnengaged)).toBe(1);
  });
});

describe('update segment', () => {
  it('keeps the rules when RuleGroups is absent and replaces them when present', async () => {
    const id = await create('Ada', [{ Rules: [rule('EmailAddress', 'CONTAINS ada@')] }]);
    expect((await c.call('PUT', `/email/segments/${id}`, { Title: 'Ada L.' })).status).toBe(200);
    let got = (await c.call('GET', `/email/segments/${id}`)).body;
    expect(got).toMatchObject({ Title: 'Ada L.', ActiveSubscribers: 1, RuleGroups: [{ Rules: [rule('EmailAddress', 'CONTAINS ada@')] }] });
    expect((await c.call('PUT', `/email/segments/${id}`, { Title: 'Alan', RuleGroups: [{ Rules: [rule('EmailAddress', 'CONTAINS alan@')] }] })).status).toBe(200);
    got = (await c.call('GET', `/email/segments/${id}`)).body;
    expect(got.RuleGroups).toEqual([{ Rules: [rule('EmailAddress', 'CONTAINS alan@')] }]);
    expect((await c.call('PUT', `/email/segments/${id}`, { Title: 'Alan', RuleGroups: [] })).status).toBe(200);
    expect(await activeCount(id)).toBe(3);
  });

  it('gives 273 without a title and 275 for the title of another segment of the list', async () => {
    const id = await create('Mine');
    expectCoded(await c.call('PUT', `/email/segments/${id}`, { RuleGroups: [] }), 273);
    expectCoded(await c.call('PUT', `/email/segments/${id}`, { Title: 'pro plan' }), 275);
    expect((await c.call('PUT', `/email/segments/${id}`, { Title: 'MINE' })).status).toBe(200);
  });

  it('gives 277 for unparsable rules and leaves the segment as it was', async () => {
    const id = await create('Ada', [{ Rules: [rule('EmailAddress', 'CONTAINS ada@')] }]);
    expectCoded(await c.call('PUT', `/email/segments/${id}`, { Title: 'Changed', RuleGroups: [{ Rules: [rule('Shoe', 'EQUALS 9')] }] }), 277);
    expect((await c.call('GET', `/email/segments/${id}`)).body).toMatchObject({ Title: 'Ada', RuleGroups: [{ Rules: [rule('EmailAddress', 'CONTAINS ada@')] }] });
  });

  it('gives 272 when the rules of a segment used by an unsent draft would change, but allows a rename', async () => {
    // The seeded draft "Pro Offer (draft)" targets the Pro plan segment.
    const changed = await c.call('PUT', `/email/segments/${S.newsletterPro}`, { Title: 'Pro plan', RuleGroups: [{ Rules: [rule('[Plan]', 'EQUALS Free')] }] });
    expectCoded(changed, 272);
    expect((await c.call('PUT', `/email/segments/${S.newsletterPro}`, { Title: 'Pro subscribers' })).status).toBe(200);
    const same = await c.call('PUT', `/email/segments/${S.newsletterPro}`, { Title: 'Pro subscribers', RuleGroups: [{ Rules: [rule('[Plan]', 'EQUALS Pro')] }] });
    expect(same.status).toBe(200);
  });

  it('gives 283 while the account is above its segment limit', async () => {
    const id = await create('Mine');
    c.sandbox.state().campaignAccount!.segmentLimit = 3;
    expectCoded(await c.call('PUT', `/email/segments/${id}`, { Title: 'Mine 2' }), 283);
  });

  it('gives 284 for a system segment', async () => {
    expectCoded(await c.call('PUT', `/email/segments/${S.newsletterEngaged}`, { Title: 'Mine now' }), 284);
    expect(c.sandbox.state().segments[S.newsletterEngaged].Title).toBe('Engaged subscribers');
  });
});

describe('add rule group', () => {
  it('adds one more AND requirement and keeps the existing groups', async () => {
    const id = await create('Example', [{ Rules: [rule('EmailAddress', 'CONTAINS @example.com')] }]);
    expect(await activeCount(id)).toBe(3);
    const answer = await c.call('POST', `/email/segments/${id}/rules`, { Rules: [rule('DateSubscribed', 'BEFORE 2024/01/12')] });
    expect(answer.status).toBe(200);
    const got = (await c.call('GET', `/email/segments/${id}`)).body;
    expect(got.RuleGroups).toHaveLength(2);
    expect(got.ActiveSubscribers).toBe(2);
  });

  it('gives 277 for an unparsable group, 283 above the limit and 284 on a system segment', async () => {
    const id = await create('Mine');
    expectCoded(await c.call('POST', `/email/segments/${id}/rules`, { Rules: [] }), 277);
    expectCoded(await c.call('POST', `/email/segments/${id}/rules`, {}), 277);
    expectCoded(await c.call('POST', `/email/segments/${S.customersUnengaged}/rules`, { Rules: [rule('EmailAddress', 'CONTAINS a')] }), 284);
    c.sandbox.state().campaignAccount!.segmentLimit = 1;
    expectCoded(await c.call('POST', `/email/segments/${id}/rules`, { Rules: [rule('EmailAddress', 'CONTAINS a')] }), 283);
  });
});

describe('delete segment rules', () => {
  it('removes every rule group, leaving a blank segment of all active subscribers', async () => {
    const answer = await c.call('DELETE', `/email/segments/${S.newsletterRecentExample}/rules`);
    expect(answer.status).toBe(200);
    const got = (await c.call('GET', `/email/segments/${S.newsletterRecentExample}`)).body;
    expect(got).toMatchObject({ RuleGroups: [], ActiveSubscribers: 3 });
  });

  it('gives 284 for a system segment and keeps it', async () => {
    expectCoded(await c.call('DELETE', `/email/segments/${S.earlyAccessEngaged}/rules`), 284);
    expect(c.sandbox.state().segments[S.earlyAccessEngaged]).toBeDefined();
  });
});
