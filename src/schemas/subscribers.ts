// Responses of the subscriber endpoints (service-spec.md "Subscribers" and the
// resources they return). Loose objects: extra fields pass, values are never
// rewritten (JSON output is the service's data unchanged).
import * as z from 'zod/mini';
import { dateTime, id, lenientInt } from './common.js';

/** "Add subscriber" answers 201 with a JSON string identifying the subscriber. */
export const addSubscriberResponse = z.unknown();

/** "Import result (200 body, and ResultData of error 210)". */
export const importResult = z.looseObject({
  TotalUniqueEmailsSubmitted: z.optional(z.nullable(lenientInt)),
  TotalExistingSubscribers: z.optional(z.nullable(lenientInt)),
  TotalNewSubscribers: z.optional(z.nullable(lenientInt)),
  DuplicateEmailsInSubmission: z.optional(z.nullable(z.array(z.string()))),
  FailureDetails: z.optional(
    z.nullable(
      z.array(
        z.looseObject({
          EmailAddress: z.optional(z.nullable(z.string())),
          Code: z.optional(z.nullable(lenientInt)),
          Message: z.optional(z.nullable(z.string())),
        }),
      ),
    ),
  ),
});
export type ImportResult = z.infer<typeof importResult>;

/** "Subscriber history element". */
export const subscriberHistory = z.array(
  z.looseObject({
    ID: z.optional(z.nullable(id)),
    Type: z.optional(z.nullable(z.string())),
    Name: z.optional(z.nullable(z.string())),
    Actions: z.optional(
      z.nullable(
        z.array(
          z.looseObject({
            Event: z.optional(z.nullable(z.string())),
            Date: z.optional(z.nullable(dateTime)),
            IPAddress: z.optional(z.nullable(z.string())),
            Detail: z.optional(z.nullable(z.string())),
          }),
        ),
      ),
    ),
  }),
);
export type SubscriberHistory = z.infer<typeof subscriberHistory>;

/** "Lists-for-email element". */
export const listsForEmail = z.array(
  z.looseObject({
    ListID: id,
    ListName: z.optional(z.nullable(z.string())),
    SubscriberState: z.optional(z.nullable(z.string())),
    DateSubscriberAdded: z.optional(z.nullable(dateTime)),
  }),
);
export type ListsForEmail = z.infer<typeof listsForEmail>;
