// The subscriber calls (src/api/subscribers.ts) against the sandbox.
import { describe, expect, it } from 'vitest';
import { addSubscriber, getListsForEmail, getSubscriberHistory, importBatch, importPath, updateSubscriber } from '../../src/api/subscribers.js';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { useApiSandbox } from '../helpers/api-client.js';

const api = useApiSandbox();
const LIST = SEED_LIST_IDS.newsletter;
const body = (email: string) => ({ EmailAddress: email, Name: 'Nia', CustomFields: [], ConsentToTrack: 'Yes' as const, Resubscribe: false, RestartSubscriptionBasedAutoresponders: false });

describe('subscriber calls', () => {
  it('addSubscriber posts the subscriber and returns the bare string answer; a 500 is repeated (adding is idempotent)', async () => {
    api.sandbox.failNext({ status: 500 });
    const { answer, requests } = await api.sent((c) => addSubscriber(c, LIST, body('nia@example.com')));
    expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', `/email/subscribers/${LIST}`, 500],
      ['POST', `/email/subscribers/${LIST}`, 201],
    ]);
    expect(requests[1]!.body).toEqual(body('nia@example.com'));
    expect(answer).toBe('nia@example.com');
  });

  it('updateSubscriber puts the new body with the current address in the query', async () => {
    const { requests } = await api.sent((c) => updateSubscriber(c, LIST, 'ada@example.com', body('ada@example.com')));
    expect(requests).toEqual([{ method: 'PUT', path: `/email/subscribers/${LIST}`, query: { email: 'ada@example.com' }, body: body('ada@example.com'), status: 200 }]);
  });

  it('importBatch posts the prepared body as it is, to importPath', async () => {
    const raw = Buffer.from(JSON.stringify({ Subscribers: [{ EmailAddress: 'imp@example.com', Name: 'I', CustomFields: [], ConsentToTrack: 'Yes' }], Resubscribe: false, QueueSubscriptionBasedAutoResponders: false, RestartSubscriptionBasedAutoresponders: false }));
    const { answer, requests } = await api.sent((c) => importBatch(c, LIST, raw, { timeoutMs: 10_000 }));
    expect(importPath(LIST)).toBe(`/email/subscribers/${LIST}/import`);
    expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([['POST', importPath(LIST), 200]]);
    expect(answer).toMatchObject({ status: 200, data: { TotalNewSubscribers: 1 } });
  });

  it('reads the history of an address in a list, and the lists of an address, the address in the query', async () => {
    const history = await api.sent((c) => getSubscriberHistory(c, LIST, 'ada@example.com'));
    expect(history.requests.map((r) => [r.path, r.query])).toEqual([[`/email/subscribers/${LIST}/history`, { email: 'ada@example.com' }]]);
    expect(Array.isArray(history.answer)).toBe(true);
    const lists = await api.sent((c) => getListsForEmail(c, 'ada@example.com'));
    expect(lists.requests.map((r) => [r.path, r.query])).toEqual([['/email/clients/listsforemail', { email: 'ada@example.com' }]]);
    expect((lists.answer as { ListID: string }[]).map((l) => l.ListID)).toContain(LIST);
  });

  it('encodes the list id in the path', async () => {
    const { requests } = await api.sent((c) => getSubscriberHistory(c, 'a/b?c', 'ada@example.com'));
    expect(requests.map((r) => r.path)).toEqual(['/email/subscribers/a%2Fb%3Fc/history']);
  });
});
