// The event model of webhook deliveries (service-spec.md "Events"). Values are kept exactly as
// they arrived (a SignupIPAddress may be a marker like "Manually Entered"), so fields are loose.

export const WEBHOOK_BATCH_LIMIT = 1000;

export type WebhookEventType = 'Subscribe' | 'Update' | 'Deactivate';
export const WEBHOOK_EVENT_TYPES = ['Subscribe', 'Update', 'Deactivate'] as const satisfies readonly WebhookEventType[];

export interface CustomFieldValue {
  Key: string;
  Value: string;
}

/** Any other field a delivery carries is kept. */
export interface WebhookEvent {
  Type: string;
  Date?: string;
  OldEmailAddress?: string;
  EmailAddress?: string;
  Name?: string;
  State?: string;
  CustomFields?: CustomFieldValue[];
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

/** Answered 400. */
export class MalformedDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedDeliveryError';
  }
}

/** Answered 413. */
export class OversizedDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OversizedDeliveryError';
  }
}

export class TooManyEventsError extends OversizedDeliveryError {
  constructor(readonly limit: number) {
    super(`more than ${limit} events in one delivery (the service sends at most ${WEBHOOK_BATCH_LIMIT})`);
    this.name = 'TooManyEventsError';
  }
}

export class TooManyElementsError extends OversizedDeliveryError {
  constructor(
    readonly limit: number,
    what: 'XML elements' | 'JSON values' = 'XML elements',
  ) {
    super(`more than ${limit} ${what} in one delivery`);
    this.name = 'TooManyElementsError';
  }
}

/** Fields are not judged: a receiver prints what it got. */
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
