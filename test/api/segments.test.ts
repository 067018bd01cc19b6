// The segment calls (src/api/segments.ts) against the sandbox.
import { describe, expect, it } from 'vitest';
import { addRuleGroup, clearSegmentRules, createSegment, getSegment, updateSegment } from '../../src/api/segments.js';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { useApiSandbox } from '../helpers/api-client.js';

const api = useApiSandbox();
const rules = { Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS example.com' }] };

describe('segment calls', () => {
  it('create, get, update, add a rule group and clear the rules of a segment, each as its request', async () => {
    const created = await api.sent((c) => createSegment(c, SEED_LIST_IDS.newsletter, { Title: 'API', RuleGroups: [rules] }));
    expect(created.requests).toEqual([{ method: 'POST', path: `/email/segments/${SEED_LIST_IDS.newsletter}`, query: {}, body: { Title: 'API', RuleGroups: [rules] }, status: 201 }]);
    expect(created.answer).toMatchObject({ fits: true, data: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const id = (created.answer as { data: string }).data;

    expect(await getSegment(api.client(), id)).toMatchObject({ SegmentID: id, Title: 'API', RuleGroups: [rules] });
    const updated = await api.sent((c) => updateSegment(c, id, { Title: 'Renamed' }));
    expect(updated.requests.map((r) => [r.method, r.path, r.body, r.status])).toEqual([['PUT', `/email/segments/${id}`, { Title: 'Renamed' }, 200]]);
    const added = await api.sent((c) => addRuleGroup(c, id, rules as never));
    expect(added.requests.map((r) => [r.method, r.path, r.status])).toEqual([['POST', `/email/segments/${id}/rules`, 200]]);
    const cleared = await api.sent((c) => clearSegmentRules(c, id));
    expect(cleared.requests.map((r) => [r.method, r.path, r.status])).toEqual([['DELETE', `/email/segments/${id}/rules`, 200]]);
    expect(await getSegment(api.client(), id)).toMatchObject({ Title: 'Renamed', RuleGroups: [] });
  });

  it('never repeats a creation or an added rule group; repeats the update and the clear', async () => {
    api.sandbox.failNext({ status: 500 });
    expect((await api.sent((c) => createSegment(c, SEED_LIST_IDS.newsletter, { Title: 'Once' }))).requests).toHaveLength(1);
    const id = ((await createSegment(api.client(), SEED_LIST_IDS.newsletter, { Title: 'Twice' })) as { data: string }).data;
    api.sandbox.failNext({ status: 500 });
    expect((await api.sent((c) => addRuleGroup(c, id, rules as never))).requests).toHaveLength(1);
    api.sandbox.failNext({ status: 500 });
    expect((await api.sent((c) => updateSegment(c, id, { Title: 'T' }))).requests.map((r) => r.status)).toEqual([500, 200]);
    api.sandbox.failNext({ status: 500 });
    expect((await api.sent((c) => clearSegmentRules(c, id))).requests.map((r) => r.status)).toEqual([500, 200]);
  });
});
