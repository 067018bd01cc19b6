// service-spec.md "Campaigns".
import type { ApiClient, RawResponse, WriteAnswer } from '../core/http.js';
import {
  campaignSummary,
  createCampaignResponse,
  scheduledCampaigns,
  sentCampaigns,
  unsubscribesPage,
  type CreateCampaignResponse,
  type SentCampaign,
  type UnsubscribesPage,
} from '../schemas/campaigns.js';
import { toInt } from '../schemas/common.js';
import type { DraftCampaign } from '../validation/campaign-fields.js';
import type { UnsubscribesQuery } from '../validation/query-params.js';

const campaignPath = (campaignId: string) => `/email/campaigns/${encodeURIComponent(campaignId)}`;

/**
 * POST /email/campaigns. A creation: never repeated automatically (CLI.md
 * "retries"), and a 2xx whose body does not fit is handed back as received:
 * the campaign exists, so failing would invite creating it twice.
 */
export function createDraftCampaign(client: ApiClient, body: DraftCampaign): Promise<WriteAnswer<CreateCampaignResponse>> {
  return client.write({ method: 'POST', path: '/email/campaigns', body, schema: createCampaignResponse, idempotent: false });
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
export function getUnsubscribesPage(
  client: ApiClient,
  campaignId: string,
  query: UnsubscribesQuery,
  options: { signal?: AbortSignal } = {},
): Promise<UnsubscribesPage> {
  return client.request({
    method: 'GET',
    path: `${campaignPath(campaignId)}/unsubscribes`,
    query: { ...query },
    schema: unsubscribesPage,
    idempotent: true,
    signal: options.signal,
  });
}

export function getCampaignSummary(client: ApiClient, campaignId: string) {
  return client.request({ method: 'GET', path: `${campaignPath(campaignId)}/summary`, schema: campaignSummary, idempotent: true });
}

/** GET /email/clients/scheduled. */
export function listScheduledCampaigns(client: ApiClient) {
  return client.request({ method: 'GET', path: '/email/clients/scheduled', schema: scheduledCampaigns, idempotent: true });
}

export interface SentCampaignList {
  campaigns: SentCampaign[];
  /** Present when the service answered the paged envelope (the real service does). */
  paging?: { pageNumber: number; numberOfPages: number; totalNumberOfRecords: number };
}

/** GET /email/clients/campaigns: the spec's array or the real service's paged envelope, as one list. */
export async function listSentCampaigns(client: ApiClient): Promise<SentCampaignList> {
  const answer = await client.request({ method: 'GET', path: '/email/clients/campaigns', schema: sentCampaigns, idempotent: true });
  if (Array.isArray(answer)) return { campaigns: answer };
  return {
    campaigns: answer.Results,
    paging: {
      pageNumber: toInt(answer.PageNumber) || 1,
      numberOfPages: toInt(answer.NumberOfPages) || 1,
      totalNumberOfRecords: toInt(answer.TotalNumberOfRecords) || answer.Results.length,
    },
  };
}
