// Builders of webhook events (service-spec.md "Events" table).
import { customFieldsForEvent } from './custom-field-values.js';
import { serviceDateTime } from './dates.js';
import type { Subscriber, WebhookEvent } from './types.js';

/**
 * service-spec.md "Events", Subscribe: "SignupIPAddress (string; a
 * non-address marker is used for manually entered subscribers)". The marker
 * text is the sandbox's choice; the spec names none.
 */
export const MANUAL_SIGNUP_MARKER = 'Manually Entered';

export function subscribeEvent(subscriber: Subscriber, at: Date): WebhookEvent {
  return {
    Type: 'Subscribe',
    Date: serviceDateTime(at),
    EmailAddress: subscriber.EmailAddress,
    Name: subscriber.Name,
    CustomFields: customFieldsForEvent(subscriber.CustomFields),
    SignupIPAddress: MANUAL_SIGNUP_MARKER,
  };
}

export function updateEvent(subscriber: Subscriber, oldEmailAddress: string, at: Date): WebhookEvent {
  return {
    Type: 'Update',
    Date: serviceDateTime(at),
    OldEmailAddress: oldEmailAddress,
    EmailAddress: subscriber.EmailAddress,
    Name: subscriber.Name,
    State: subscriber.State,
    CustomFields: customFieldsForEvent(subscriber.CustomFields),
  };
}

export function deactivateEvent(subscriber: Subscriber, at: Date): WebhookEvent {
  return {
    Type: 'Deactivate',
    Date: serviceDateTime(at),
    EmailAddress: subscriber.EmailAddress,
    Name: subscriber.Name,
    State: subscriber.State,
    CustomFields: customFieldsForEvent(subscriber.CustomFields),
  };
}
