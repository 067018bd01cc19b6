// The event model of the service's webhook deliveries (service-spec.md
// "Events"): a POST whose body is {Events: array of event, ListID: string},
// in JSON or XML. The receiving side keeps every value exactly as it arrived
// (a SignupIPAddress that is a marker such as "Manually Entered" rather than
// an address stays as it is), so fields are typed loosely.

/** service-spec.md "Events" rule 3 and "Limits": at most 1000 events per request. */
export const WEBHOOK_BATCH_LIMIT = 1000;

export type WebhookEventType = 'Subscribe' | 'Update' | 'Deactivate';
export const WEBHOOK_EVENT_TYPES = ['Subscribe', 'Update', 'Deactivate'] as const satisfies readonly WebhookEventType[];

export interface CustomFieldValue {
  Key: string;
  Value: string;
}

/** One event as the service's "Events" table describes it; any other field a delivery carries is kept. */
export interface WebhookEvent {
  Type: string;
  /** YYYY-MM-DD HH:MM:SS */
  Date?: string;
  OldEmailAddress?: string;
  EmailAddress?: string;
  Name?: string;
  State?: string;
  CustomFields?: CustomFieldValue[];
  /** An address, or a non-address marker for manually entered subscribers. */
  SignupIPAddress?: string;
  [field: string]: unknown;
}

export interface WebhookDelivery {
  Events: WebhookEvent[];
  ListID: string;
}

export type DeliveryFormat = 'json' | 'xml';

export const CONTENT_TYPES: Record<DeliveryFormat, string> = {
  json: 'application/json',
  xml: 'application/xml',
};

/** A body that is not a delivery; the message says what is wrong, for a 400 and a line on stderr. */
export class MalformedDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedDeliveryError';
  }
}

/** A delivery larger than any the service sends, in events or in XML elements: answered 413. */
export class OversizedDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OversizedDeliveryError';
  }
}

/** A delivery with more events than the service ever sends in one request (service-spec.md "Events" rule 3). */
export class TooManyEventsError extends OversizedDeliveryError {
  constructor(readonly limit: number) {
    super(`more than ${limit} events in one delivery (the service sends at most ${WEBHOOK_BATCH_LIMIT})`);
    this.name = 'TooManyEventsError';
  }
}

/** A delivery with more XML elements or JSON values than 1,000 events need (src/webhooks/decode.ts MAX_XML_ELEMENTS, MAX_JSON_VALUES). */
export class TooManyElementsError extends OversizedDeliveryError {
  constructor(
    readonly limit: number,
    what: 'XML elements' | 'JSON values' = 'XML elements',
  ) {
    super(`more than ${limit} ${what} in one delivery`);
    this.name = 'TooManyElementsError';
  }
}

/**
 * Checks the body shape of service-spec.md "Events" rule 2 and returns the
 * delivery with its values untouched. Events must be objects; their fields
 * are not judged (a receiver prints what it got).
 */
export function checkDelivery(value: unknown): WebhookDelivery {
  if (!isPlainObject(value)) throw new MalformedDeliveryError('the body is not an object with Events and ListID');
  if (!('Events' in value)) throw new MalformedDeliveryError('Events is missing');
  if (!Array.isArray(value.Events)) throw new MalformedDeliveryError('Events is not an array');
  if (!('ListID' in value)) throw new MalformedDeliveryError('ListID is missing');
  if (typeof value.ListID !== 'string') throw new MalformedDeliveryError('ListID is not a string');
  value.Events.forEach((event, i) => {
    if (!isPlainObject(event)) throw new MalformedDeliveryError(`Events[${i}] is not an object`);
  });
  return value as unknown as WebhookDelivery;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
