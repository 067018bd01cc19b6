// service-spec.md "Campaigns".
import type { ApiClient, RawResponse } from '../core/http.js';
import {
  campaignSummary,
  createCampaignResponse,
  scheduledCampaigns,
  sentCampaigns,
  unsubscribesPage,
  type UnsubscribesPage,
} from '../schemas/campaigns.js';
import type { DraftCampaign } from '../validation/campaign-fields.js';
import type { UnsubscribesQuery } from '../validation/query-params.js';

const campaignPath = (campaignId: string) => `/email/campaigns/${encodeURIComponent(campaignId)}`;

/** POST /email/campaigns. A creation: never repeated automatically (CLI.md "retries"). */
export function createDraftCampaign(client: ApiClient, body: DraftCampaign): Promise<Record<string, unknown>> {
  return client.request({ method: 'POST', path: '/email/campaigns', body, schema: createCampaignResponse, idempotent: false });
}

/**
 * POST /email/campaigns/{id}/sendpreview. A send: after a 5xx or a dropped
 * connection the preview may have gone out, so it is never repeated (a 429
 * was refused before sending and is waited out by the core).
 */
export function sendCampaignPreview(client: ApiClient, campaignId: string, recipients: string[]): Promise<RawResponse> {
  return client.send({ method: 'POST', path: `${campaignPath(campaignId)}/sendpreview`, body: { PreviewRecipients: recipients }, idempotent: false });
}

/** POST /email/campaigns/{id}/unschedule. Never repeated automatically (CLI.md "retries"). */
export function unscheduleCampaign(client: ApiClient, campaignId: string): Promise<RawResponse> {
  return client.send({ method: 'POST', path: `${campaignPath(campaignId)}/unschedule`, idempotent: false });
}

/** GET /email/campaigns/{id}/unsubscribes: one page of the paged result envelope. */
export function getUnsubscribesPage(client: ApiClient, campaignId: string, query: UnsubscribesQuery, signal?: AbortSignal): Promise<UnsubscribesPage> {
  return client.request({
    method: 'GET',
    path: `${campaignPath(campaignId)}/unsubscribes`,
    query: { ...query },
    schema: unsubscribesPage,
    idempotent: true,
    signal,
  });
}

export function getCampaignSummary(client: ApiClient, campaignId: string) {
  return client.request({ method: 'GET', path: `${campaignPath(campaignId)}/summary`, schema: campaignSummary, idempotent: true });
}

/** GET /email/clients/scheduled. */
export function listScheduledCampaigns(client: ApiClient) {
  return client.request({ method: 'GET', path: '/email/clients/scheduled', schema: scheduledCampaigns, idempotent: true });
}

/** GET /email/clients/campaigns. */
export function listSentCampaigns(client: ApiClient) {
  return client.request({ method: 'GET', path: '/email/clients/campaigns', schema: sentCampaigns, idempotent: true });
}
