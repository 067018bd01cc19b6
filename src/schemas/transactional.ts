// Responses of the transactional endpoints (service-spec.md "Smart email list
// element", "Smart email details", "Email statistics").
import { id, lenientInt, z } from './common.js';

export const smartEmailList = z.array(
  z.looseObject({ ID: id, Name: z.optional(z.nullable(z.string())), Status: z.optional(z.nullable(z.string())), CreatedAt: z.optional(z.nullable(z.string())) }),
);

export const smartEmailDetails = z.looseObject({
  SmartEmailID: id,
  Name: z.optional(z.nullable(z.string())),
  Status: z.optional(z.nullable(z.string())),
  Properties: z.optional(z.nullable(z.looseObject({}))),
});

const counter = z.optional(z.nullable(lenientInt));

/** Query echo and counters. */
export const emailStatistics = z.looseObject({
  Query: z.optional(z.nullable(z.looseObject({}))),
  Sent: counter,
  Bounces: counter,
  Delivered: counter,
  Opened: counter,
  Clicked: counter,
});
export type EmailStatistics = z.infer<typeof emailStatistics>;
