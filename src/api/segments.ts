// service-spec.md "Segments".
import type { ApiClient, RawResponse, WriteAnswer } from '../core/http.js';
import { createSegmentResponse, segmentDetails, type SegmentDetails } from '../schemas/segments.js';
import type { RuleGroup } from '../validation/rule-groups.js';

const segmentPath = (segmentId: string) => `/email/segments/${encodeURIComponent(segmentId)}`;

/**
 * POST /email/segments/{listId}: 201 with the new segment id. The body is sent
 * as given (--from-file may carry more). A 2xx that is not an id comes back as received.
 */
export function createSegment(client: ApiClient, listId: string, body: Record<string, unknown>): Promise<WriteAnswer<string>> {
  return client.write({ method: 'POST', path: `/email/segments/${encodeURIComponent(listId)}`, body, schema: createSegmentResponse, idempotent: false });
}

export function getSegment(client: ApiClient, segmentId: string): Promise<SegmentDetails> {
  return client.request({ method: 'GET', path: segmentPath(segmentId), schema: segmentDetails, idempotent: true });
}

/**
 * PUT /email/segments/{segmentId}. "When RuleGroups is present, all existing
 * rules are deleted before the new ones are parsed; when absent, existing
 * rules remain." Repeating the same PUT leaves the same segment, so it is
 * retried like a read.
 */
export function updateSegment(client: ApiClient, segmentId: string, body: { Title: string; RuleGroups?: RuleGroup[] }): Promise<RawResponse> {
  return client.send({ method: 'PUT', path: segmentPath(segmentId), body, idempotent: true });
}

/** POST /email/segments/{segmentId}/rules: adds one more rule group. Repeating it would add the group twice. */
export function addRuleGroup(client: ApiClient, segmentId: string, group: RuleGroup): Promise<RawResponse> {
  return client.send({ method: 'POST', path: `${segmentPath(segmentId)}/rules`, body: group, idempotent: false });
}

/** DELETE /email/segments/{segmentId}/rules: removes every rule; a second time changes nothing more. */
export function clearSegmentRules(client: ApiClient, segmentId: string): Promise<RawResponse> {
  return client.send({ method: 'DELETE', path: `${segmentPath(segmentId)}/rules`, idempotent: true });
}
