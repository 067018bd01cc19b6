// service-spec.md "Segments".
import type { ApiClient, RawResponse, WriteAnswer } from '../core/http.js';
import { createSegmentResponse, segmentDetails, type SegmentDetails } from '../schemas/segments.js';
import type { RuleGroup } from '../validation/rule-groups.js';

const segmentPath = (segmentId: string) => `/email/segments/${encodeURIComponent(segmentId)}`;

/** The body is sent as given (--from-file may carry more); a 2xx that is not an id comes back as received. */
export function createSegment(client: ApiClient, listId: string, body: Record<string, unknown>): Promise<WriteAnswer<string>> {
  return client.write({ method: 'POST', path: `/email/segments/${encodeURIComponent(listId)}`, body, schema: createSegmentResponse, idempotent: false });
}

export function getSegment(client: ApiClient, segmentId: string): Promise<SegmentDetails> {
  return client.request({ method: 'GET', path: segmentPath(segmentId), schema: segmentDetails, idempotent: true });
}

/** Repeating the same PUT leaves the same segment, so it is retried like a read. */
export function updateSegment(client: ApiClient, segmentId: string, body: { Title: string; RuleGroups?: RuleGroup[] }): Promise<RawResponse> {
  return client.send({ method: 'PUT', path: segmentPath(segmentId), body, idempotent: true });
}

/** Repeating it would add the group twice. */
export function addRuleGroup(client: ApiClient, segmentId: string, group: RuleGroup): Promise<RawResponse> {
  return client.send({ method: 'POST', path: `${segmentPath(segmentId)}/rules`, body: group, idempotent: false });
}

export function clearSegmentRules(client: ApiClient, segmentId: string): Promise<RawResponse> {
  return client.send({ method: 'DELETE', path: `${segmentPath(segmentId)}/rules`, idempotent: true });
}
