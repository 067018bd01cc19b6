// Webhook events the sandbox emits (service-spec.md "Events" table).
import { describe, expect, it } from 'vitest';
import { deactivateEvent, MANUAL_SIGNUP_MARKER, subscribeEvent, updateEvent } from '../../src/sandbox/subscriber-events.js';
import { subscriber } from '../helpers/sandbox-context.js';

const at = new Date('2025-03-04T05:06:07Z');
const sub = subscriber('Ada@Example.com', { State: 'Unsubscribed', CustomFields: { '[Interests]': ['News', 'Events'], '[Age]': ['42'] } });

describe('subscriber events', () => {
  it('Subscribe carries the manual-entry marker and each custom field value as its own {Key, Value}', () => {
    expect(subscribeEvent(sub, at)).toEqual({
      Type: 'Subscribe',
      Date: '2025-03-04 05:06:07',
      EmailAddress: 'Ada@Example.com',
      Name: 'Ada',
      CustomFields: [
        { Key: '[Interests]', Value: 'News' },
        { Key: '[Interests]', Value: 'Events' },
        { Key: '[Age]', Value: '42' },
      ],
      SignupIPAddress: MANUAL_SIGNUP_MARKER,
    });
  });

  it('Update carries the old address and the state; Deactivate the state', () => {
    expect(Object.keys(updateEvent(sub, 'old@example.com', at))).toEqual(['Type', 'Date', 'OldEmailAddress', 'EmailAddress', 'Name', 'State', 'CustomFields']);
    expect(updateEvent(sub, 'old@example.com', at)).toMatchObject({ OldEmailAddress: 'old@example.com', State: 'Unsubscribed' });
    expect(Object.keys(deactivateEvent(sub, at))).toEqual(['Type', 'Date', 'EmailAddress', 'Name', 'State', 'CustomFields']);
    expect(deactivateEvent(sub, at)).toMatchObject({ Type: 'Deactivate', State: 'Unsubscribed' });
  });
});
