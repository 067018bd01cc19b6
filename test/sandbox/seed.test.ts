// The seeded state (src/sandbox/seed.ts): the same for the same moment,
// every subscriber state of service-spec.md "States and transitions" present,
// and keys as the store expects them.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/seed-ids.js';
import { emptyState, seedState } from '../../src/sandbox/seed.js';
import { STATE_VERSION } from '../../src/sandbox/types.js';

const now = new Date('2025-03-04T05:06:07Z');

describe('emptyState', () => {
  it('is a fresh empty state of the current version each time', () => {
    const a = emptyState();
    expect(a).toMatchObject({ version: STATE_VERSION, accountSuspended: false, lists: {}, webhooks: [] });
    a.webhooks.push({} as never);
    expect(emptyState().webhooks).toEqual([]);
  });
});

describe('seedState', () => {
  const state = seedState(now);

  it('is the same for the same moment', () => {
    expect(seedState(now)).toEqual(state);
  });

  it('holds the three lists, the newsletter with a custom field of every DataType', () => {
    expect(Object.keys(state.lists).sort()).toEqual(Object.values(SEED_LIST_IDS).sort());
    const types = state.lists[SEED_LIST_IDS.newsletter]!.CustomFields.map((f) => f.DataType).sort();
    expect(types).toEqual(['Country', 'Date', 'MultiSelectMany', 'MultiSelectOne', 'Number', 'Text', 'USState']);
    expect(state.lists[SEED_LIST_IDS.earlyAccess]!.ConfirmedOptIn).toBe(true);
  });

  it('has a subscriber in every state, keyed by the lower-cased address', () => {
    const subscribers = Object.values(state.lists).flatMap((l) => Object.entries(l.Subscribers));
    for (const [key, s] of subscribers) expect(key).toBe(s.EmailAddress.toLowerCase());
    expect(new Set(subscribers.map(([, s]) => s.State))).toEqual(new Set(['Active', 'Unconfirmed', 'Unsubscribed', 'Bounced', 'Deleted']));
  });

  it('suppresses an address on a list and one on none', () => {
    expect(Object.keys(state.suppression).sort()).toEqual(['blocked@example.com', 'suppressed@example.com']);
  });

  it('seeds the campaign side too', () => {
    expect(Object.keys(state.campaigns).length).toBeGreaterThan(0);
    expect(Object.keys(state.segments).length).toBeGreaterThan(0);
  });
});
