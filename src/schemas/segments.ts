// Responses of the segment endpoints (service-spec.md "Segment", "Segments").
import * as z from 'zod/mini';
import { id, lenientInt } from './common.js';

/** "Create segment": 201, a JSON string (the new segment identifier). */
export const createSegmentResponse = id;

const rule = z.looseObject({ RuleType: z.string(), Clause: z.string() });

/** "Get segment": ListID, SegmentID, Title, ActiveSubscribers, RuleGroups. */
export const segmentDetails = z.looseObject({
  ListID: z.optional(id),
  SegmentID: id,
  Title: z.string(),
  ActiveSubscribers: z.optional(z.nullable(lenientInt)),
  RuleGroups: z.optional(z.nullable(z.array(z.looseObject({ Rules: z.array(rule) })))),
});
export type SegmentDetails = z.infer<typeof segmentDetails>;
