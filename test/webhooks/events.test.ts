// The delivery shape (service-spec.md "Events" rule 2) and its errors.
import { describe, expect, it } from 'vitest';
import { checkDelivery, isPlainObject, MalformedDeliveryError, TooManyEventsError, WEBHOOK_BATCH_LIMIT } from '../../src/webhooks/events.js';

describe('checkDelivery', () => {
  it('returns the delivery itself, values untouched and event fields not judged', () => {
    const body = { Events: [{ Type: 'Nonsense', Date: 17 }], ListID: 'l', Extra: true };
    expect(checkDelivery(body)).toBe(body);
  });

  it.each([
    [[], 'the body is not an object with Events and ListID'],
    [null, 'the body is not an object with Events and ListID'],
    [{ ListID: 'l' }, 'Events is missing'],
    [{ Events: {}, ListID: 'l' }, 'Events is not an array'],
    [{ Events: [] }, 'ListID is missing'],
    [{ Events: [], ListID: 7 }, 'ListID is not a string'],
    [{ Events: [{}, 'x'], ListID: 'l' }, 'Events[1] is not an object'],
    [{ Events: [[]], ListID: 'l' }, 'Events[0] is not an object'],
  ])('refuses %j: %s', (body, message) => {
    expect(() => checkDelivery(body)).toThrow(new MalformedDeliveryError(message));
    try {
      checkDelivery(body);
    } catch (error) {
      expect(error).toBeInstanceOf(MalformedDeliveryError);
    }
  });
});

describe('isPlainObject', () => {
  it('is true for objects only, not arrays or null', () => {
    expect([{}, Object.create(null), [], null, 'x', 1].map(isPlainObject)).toEqual([true, true, false, false, false, false]);
  });
});

describe('TooManyEventsError', () => {
  it('names the limit it was given and the service maximum', () => {
    const error = new TooManyEventsError(10);
    expect(error.limit).toBe(10);
    expect(error.message).toBe(`more than 10 events in one delivery (the service sends at most ${WEBHOOK_BATCH_LIMIT})`);
  });
});
