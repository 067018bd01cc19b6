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

/** Never repeated (CLI.md "retries"); a 2xx that does not fit comes back as received, since failing would invite a second campaign. */
export function createDraftCampaign(client: ApiClient, body: DraftCampaign): Promise<WriteAnswer<CreateCampaignResponse>> {
  return client.write({ method: 'POST', path: '/email/campaigns', body, schema: createCampaignResponse, idempotent: false });
}

/** After a 5xx the preview may have gone out, so it is never repeated; a 429 is waited out by the core. */
export function sendCampaignPreview(client: ApiClient, campaignId: string, recipients: string[]): Promise<RawResponse> {
  return client.send({ method: 'POST', path: `${campaignPath(campaignId)}/sendpreview`, body: { PreviewRecipients: recipients }, idempotent: false });
}

/** Never repeated automatically (CLI.md "retries"). */
export function unscheduleCampaign(client: ApiClient, campaignId: string): Promise<RawResponse> {
  return client.send({ method: 'POST', path: `${campaignPath(campaignId)}/unschedule`, idempotent: false });
}

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

export function listScheduledCampaigns(client: ApiClient) {
  return client.request({ method: 'GET', path: '/email/clients/scheduled', schema: scheduledCampaigns, idempotent: true });
}

export interface SentCampaignList {
  campaigns: SentCampaign[];
  /** The real service answers the paged envelope. */
  paging?: { pageNumber: number; numberOfPages: number; totalNumberOfRecords: number };
}

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
