// The campaign calls (src/api/campaigns.ts) against the sandbox: the request
// each one sends, what it returns, and which are never repeated.
import { describe, expect, it } from 'vitest';
import { createDraftCampaign, getCampaignSummary, getUnsubscribesPage, listScheduledCampaigns, listSentCampaigns, sendCampaignPreview, unscheduleCampaign } from '../../src/api/campaigns.js';
import { ApiError } from '../../src/core/errors.js';
import { ApiClient } from '../../src/core/http.js';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { SEED_CAMPAIGN_IDS } from '../../src/sandbox/seed-campaigns.js';
import { useApiSandbox } from '../helpers/api-client.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const api = useApiSandbox();
const C = SEED_CAMPAIGN_IDS;
const draft = { Name: `Draft ${Date.now()}`, Subject: 'S', FromName: 'F', FromEmail: 'f@example.com', ReplyTo: 'r@example.com', HtmlUrl: 'https://content.example.com/a.html', ListIDs: [SEED_LIST_IDS.newsletter] };

describe('campaign calls', () => {
  it('createDraftCampaign posts the draft once, even when the service fails, and returns the answer as it fits', async () => {
    const ok = await api.sent((c) => createDraftCampaign(c, draft));
    expect(ok.requests).toEqual([{ method: 'POST', path: '/email/campaigns', query: {}, body: draft, status: 200 }]);
    expect(ok.answer).toMatchObject({ fits: true, data: { [SEED_LIST_IDS.newsletter]: '' } });
    api.sandbox.failNext({ status: 500 });
    const failed = await api.sent((c) => createDraftCampaign(c, { ...draft, Name: 'Other' }));
    expect(failed.error).toBeInstanceOf(ApiError);
    expect(failed.requests).toHaveLength(1);
  });

  it('sendCampaignPreview and unscheduleCampaign post to the campaign, the id encoded, never repeated', async () => {
    api.sandbox.failNext({ status: 503 });
    const preview = await api.sent((c) => sendCampaignPreview(c, C.autumnDraft, ['me@example.com']));
    expect(preview.requests.map((r) => [r.method, r.path, r.body, r.status])).toEqual([['POST', `/email/campaigns/${C.autumnDraft}/sendpreview`, { PreviewRecipients: ['me@example.com'] }, 503]]);
    const unschedule = await api.sent((c) => unscheduleCampaign(c, 'a/b'));
    expect(unschedule.requests.map((r) => r.path)).toEqual(['/email/campaigns/a%2Fb/unschedule']);
  });

  it('getUnsubscribesPage sends the query and returns the paged envelope', async () => {
    const { answer, requests } = await api.sent((c) => getUnsubscribesPage(c, C.welcome, { page: 2, pagesize: 10, orderfield: 'email', orderdirection: 'desc' } as never));
    expect(requests).toEqual([expect.objectContaining({ method: 'GET', path: `/email/campaigns/${C.welcome}/unsubscribes`, query: { page: '2', pagesize: '10', orderfield: 'email', orderdirection: 'desc' } })]);
    expect(answer).toMatchObject({ PageNumber: 2, PageSize: 10, RecordsOnThisPage: 10, OrderDirection: 'desc' });
  });

  it('reads are repeated after a 500', async () => {
    api.sandbox.failNext({ status: 500 });
    const { answer, requests } = await api.sent((c) => getCampaignSummary(c, C.welcome));
    expect(requests.map((r) => r.status)).toEqual([500, 200]);
    expect(answer).toMatchObject({ Unsubscribed: 2500 });
  });

  it("listScheduledCampaigns and listSentCampaigns read the client lists; the spec's plain array has no paging", async () => {
    expect((await listScheduledCampaigns(api.client())).map((c) => c.CampaignID)).toContain(C.summerLaunch);
    const sent = await listSentCampaigns(api.client());
    expect(sent.paging).toBeUndefined();
    expect(sent.campaigns.map((c) => c.CampaignID)).toContain(C.welcome);
  });

  it("listSentCampaigns reads the real service's paged envelope as the same list, with its paging", async () => {
    const server = await startScriptedServer();
    const client = new ApiClient({ baseUrl: server.url, apiKey: 'k-12345678' });
    try {
      const record = { Name: 'N', Subject: 'S', FromName: 'F', FromEmail: 'f@example.com', ReplyTo: 'r@example.com', CampaignID: 'c1', WebVersionURL: 'https://e.com/w', WebVersionTextURL: 'https://e.com/t', SentDate: '2024-02-01 10:00:00', TotalRecipients: 10 };
      server.reply({ status: 200, body: { Results: [record], PageNumber: '1', NumberOfPages: 3, TotalNumberOfRecords: '3', PageSize: 1, RecordsOnThisPage: 1, ResultsOrderedBy: 'date', OrderDirection: 'desc' } });
      expect(await listSentCampaigns(client)).toEqual({ campaigns: [record], paging: { pageNumber: 1, numberOfPages: 3, totalNumberOfRecords: 3 } });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
