// Segments (service-spec.md "Segment", "Endpoints" → "Segments", codes
// 272-284). Membership is computed from the list's subscribers on every read
// (segment-rules.ts), so ActiveSubscribers follows adds, imports and
// unsubscribes at once.
import { randomUUID } from 'node:crypto';
import { canonicalId, isUuid } from '../identifiers.js';
import { requireList } from '../lists.js';
import { created, failCoded, failStatus, ok, requireBodyObject, type RouteDef, type SandboxContext } from '../router.js';
import { activeMembers, compileStoredRuleGroups, isEngaged, parseRuleGroup, parseRuleGroups, type RuleParseResult } from '../segment-rules.js';
import { campaignAccount } from '../seed-campaigns.js';
import type { State, Subscriber } from '../types.js';
import type { RuleGroupDefinition, SandboxSegment } from '../types-campaigns.js';

const SEGMENT_MESSAGES = {
  272: 'The segment is used by unsent campaign drafts; its rules cannot change.',
  273: 'The segment title is empty.',
  275: 'A segment with this title already exists in the list.',
  277: 'The segment rules could not be parsed; see ResultData.',
  283: 'The API segment limit of the account is reached.',
  284: 'This is a system segment; it cannot be modified.',
} as const;

/** A segment by id: a malformed id is a generic 400, an unknown one a 404 (spec: "400 generic"; 404 shape "not shown"). */
function requireSegment(state: State, segmentId: string): SandboxSegment {
  if (!isUuid(segmentId)) failStatus(400, `Invalid segment ID: ${segmentId} is not a UUID.`);
  const key = canonicalId(segmentId);
  const segment = Object.hasOwn(state.segments, key) ? state.segments[key] : undefined;
  if (!segment) failStatus(404, `Segment ${segmentId} does not exist.`);
  return segment;
}

/** Active subscribers who are members of the segment (service-spec.md "Segment": ActiveSubscribers). */
export function segmentActiveMembers(state: State, segment: SandboxSegment): Subscriber[] {
  const list = state.lists[segment.ListID];
  if (!list) return [];
  if (segment.System) {
    const wantEngaged = segment.System === 'Engaged';
    return Object.values(list.Subscribers).filter((s) => s.State === 'Active' && isEngaged(s) === wantEngaged);
  }
  return activeMembers(list, compileStoredRuleGroups(segment.RuleGroups, list.CustomFields));
}

function apiSegmentCount(state: State): number {
  let count = 0;
  for (const segment of Object.values(state.segments)) if (!segment.System) count++;
  return count;
}

/** 273: Title is compulsory and non-empty (service-spec.md "Segment"). */
function requireTitle(body: Record<string, unknown>): string {
  const title = body.Title;
  if (typeof title !== 'string' || title.trim() === '') failCoded(273, SEGMENT_MESSAGES[273]);
  return title.trim();
}

/** 275: titles are unique within a list; compared without regard to case. */
function checkUniqueTitle(state: State, listId: string, title: string, exceptId?: string): void {
  const wanted = title.toLowerCase();
  for (const other of Object.values(state.segments)) {
    if (other.ListID === listId && other.SegmentID !== exceptId && other.Title.trim().toLowerCase() === wanted) {
      failCoded(275, `${SEGMENT_MESSAGES[275]} ("${other.Title}", ${other.SegmentID})`);
    }
  }
}

function requireParsed(result: RuleParseResult): RuleGroupDefinition[] {
  if (!result.ok) failCoded(277, SEGMENT_MESSAGES[277], result.problems);
  return result.definitions;
}

/** 284 (service-spec.md "Segment" rule 4). */
function refuseSystem(segment: SandboxSegment): void {
  if (segment.System) failCoded(284, `${SEGMENT_MESSAGES[284]} ("${segment.Title}" is an engagement segment.)`);
}

/**
 * 283 on update and add-rules: the spec lists it for both ("Limits": create and
 * update segment, add rule group). A change to an existing segment cannot add
 * one, so the sandbox refuses them only while the account is above its limit
 * (e.g. after the limit was lowered).
 */
function refuseOverLimit(ctx: SandboxContext): void {
  const limit = campaignAccount(ctx.state).segmentLimit;
  const count = apiSegmentCount(ctx.state);
  if (count > limit) failCoded(283, `${SEGMENT_MESSAGES[283]} (${count} segments, limit ${limit}.)`);
}

function sameRules(a: RuleGroupDefinition[], b: RuleGroupDefinition[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const createSegment: RouteDef = {
  method: 'POST',
  pattern: '/email/segments/:listId',
  handler(req, ctx) {
    const list = requireList(ctx, req.params.listId);
    const body = requireBodyObject(req.body, 'Title and optional RuleGroups');
    const title = requireTitle(body);
    checkUniqueTitle(ctx.state, list.ListID, title);
    const limit = campaignAccount(ctx.state).segmentLimit;
    if (apiSegmentCount(ctx.state) >= limit) failCoded(283, `${SEGMENT_MESSAGES[283]} (limit ${limit}.)`);
    const ruleGroups = body.RuleGroups === undefined || body.RuleGroups === null ? [] : requireParsed(parseRuleGroups(body.RuleGroups, list.CustomFields));
    const segment: SandboxSegment = {
      SegmentID: randomUUID(),
      ListID: list.ListID,
      Title: title,
      RuleGroups: ruleGroups,
      System: null,
      CreatedAt: ctx.now().toISOString(),
    };
    ctx.store.mutate((state) => (state.segments[segment.SegmentID] = segment));
    return created(segment.SegmentID);
  },
};

const getSegment: RouteDef = {
  method: 'GET',
  pattern: '/email/segments/:segmentId',
  handler(req, ctx) {
    const segment = requireSegment(ctx.state, req.params.segmentId);
    return ok({
      ListID: segment.ListID,
      SegmentID: segment.SegmentID,
      Title: segment.Title,
      ActiveSubscribers: segmentActiveMembers(ctx.state, segment).length,
      RuleGroups: segment.RuleGroups,
    });
  },
};

const updateSegment: RouteDef = {
  method: 'PUT',
  pattern: '/email/segments/:segmentId',
  handler(req, ctx) {
    const segment = requireSegment(ctx.state, req.params.segmentId);
    refuseSystem(segment);
    const body = requireBodyObject(req.body, 'Title and optional RuleGroups');
    const title = requireTitle(body);
    checkUniqueTitle(ctx.state, segment.ListID, title, segment.SegmentID);
    refuseOverLimit(ctx);
    // "When RuleGroups is present, all existing rules are deleted before the new
    // ones are parsed; when absent, existing rules remain."
    const replace = body.RuleGroups !== undefined && body.RuleGroups !== null;
    const ruleGroups = replace ? requireParsed(parseRuleGroups(body.RuleGroups, ctx.state.lists[segment.ListID]?.CustomFields ?? [])) : segment.RuleGroups;
    // 272 only when the rules would change: renaming a segment used by a draft
    // leaves the draft's recipients as they are.
    if (!sameRules(ruleGroups, segment.RuleGroups)) {
      const users = Object.values(ctx.state.campaigns).filter((c) => c.Status !== 'Sent' && c.SegmentIDs.includes(segment.SegmentID));
      if (users.length) failCoded(272, `${SEGMENT_MESSAGES[272]} (${users.map((c) => `"${c.Name}"`).join(', ')})`);
    }
    ctx.store.mutate(() => {
      segment.Title = title;
      segment.RuleGroups = ruleGroups;
    });
    return ok();
  },
};

const addRuleGroup: RouteDef = {
  method: 'POST',
  pattern: '/email/segments/:segmentId/rules',
  handler(req, ctx) {
    const segment = requireSegment(ctx.state, req.params.segmentId);
    // "Body: {Rules: ...} (required)": no body, or one that is not an object, is a generic 400 as for the other writes;
    // an object whose Rules cannot be parsed is 277.
    const body = requireBodyObject(req.body, '{Rules: [...]}');
    refuseSystem(segment);
    refuseOverLimit(ctx);
    const [group] = requireParsed(parseRuleGroup(body, ctx.state.lists[segment.ListID]?.CustomFields ?? []));
    ctx.store.mutate(() => segment.RuleGroups.push(group));
    return ok();
  },
};

const deleteRules: RouteDef = {
  method: 'DELETE',
  pattern: '/email/segments/:segmentId/rules',
  handler(req, ctx) {
    const segment = requireSegment(ctx.state, req.params.segmentId);
    refuseSystem(segment);
    ctx.store.mutate(() => (segment.RuleGroups = []));
    return ok();
  },
};

export const routes: RouteDef[] = [createSegment, getSegment, updateSegment, addRuleGroup, deleteRules];
