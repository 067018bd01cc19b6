// Responses of the transactional endpoints (service-spec.md "Smart email list
// element", "Smart email details", "Email statistics").
import * as z from 'zod/mini';
import { field, id, lenientInt } from './common.js';

export const smartEmailList = z.array(
  z.looseObject({ ID: id, Name: z.optional(z.nullable(z.string())), Status: z.optional(z.nullable(z.string())), CreatedAt: z.optional(z.nullable(z.string())) }),
);

export const smartEmailDetails = z.looseObject({
  SmartEmailID: id,
  CreatedAt: field,
  Status: z.optional(z.nullable(z.string())),
  Name: z.optional(z.nullable(z.string())),
  Properties: z.optional(
    z.nullable(
      z.looseObject({
        From: field,
        ReplyTo: field,
        Subject: field,
        Content: z.optional(z.nullable(z.looseObject({ Html: field, Text: field, EmailVariables: field, InlineCss: field }))),
        TextPreviewUrl: field,
        HtmlPreviewUrl: field,
      }),
    ),
  ),
  AddRecipientsToList: field,
});

const counter = z.optional(z.nullable(lenientInt));

/** Query echo and counters. */
export const emailStatistics = z.looseObject({
  Query: z.optional(z.nullable(z.looseObject({ Group: field, SmartEmailID: field, From: field, To: field, TimeZone: field }))),
  Sent: counter,
  Bounces: counter,
  Delivered: counter,
  Opened: counter,
  Clicked: counter,
});
export type EmailStatistics = z.infer<typeof emailStatistics>;
