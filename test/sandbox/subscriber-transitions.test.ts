// State moves no endpoint makes (src/sandbox/subscriber-transitions.ts), and
// the events they emit (service-spec.md "Events": Deactivate on a move to an
// inactive state, Subscribe on a move to Active).
import { describe, expect, it } from 'vitest';
import { confirmSubscriber, setSubscriberState } from '../../src/sandbox/subscriber-transitions.js';
import type { SubscriberState } from '../../src/sandbox/types.js';
import { bareContext, subscriber } from '../helpers/sandbox-context.js';

const LIST = 'l1';
function contextWith(state: SubscriberState) {
  return bareContext({ lists: { [LIST]: { ListID: LIST, Name: 'L', ConfirmedOptIn: true, CustomFields: [], Subscribers: { 'ada@example.com': subscriber('Ada@example.com', { State: state }) } } } });
}

describe('setSubscriberState', () => {
  it('moves the subscriber (found by address in any case), stamps the change and emits Deactivate from Active', () => {
    const ctx = contextWith('Active');
    setSubscriberState(ctx, LIST, 'ADA@example.com', 'Bounced');
    const sub = ctx.state.lists[LIST]!.Subscribers['ada@example.com']!;
    expect(sub.State).toBe('Bounced');
    expect(sub.DateStateChanged).toBe('2025-03-04T05:06:07.000Z');
    expect(ctx.mutations).toBe(1);
    expect(ctx.events.map((e) => [e.listId, e.event.Type, e.event.State])).toEqual([[LIST, 'Deactivate', 'Bounced']]);
  });

  it('emits Subscribe on a move to Active, nothing for a move between inactive states or to the same state', () => {
    const ctx = contextWith('Unsubscribed');
    setSubscriberState(ctx, LIST, 'ada@example.com', 'Deleted');
    setSubscriberState(ctx, LIST, 'ada@example.com', 'Deleted');
    expect(ctx.events).toEqual([]);
    expect(ctx.mutations).toBe(1);
    setSubscriberState(ctx, LIST, 'ada@example.com', 'Active');
    expect(ctx.events.map((e) => e.event.Type)).toEqual(['Subscribe']);
  });

  it('names a missing list or subscriber', () => {
    const ctx = contextWith('Active');
    expect(() => setSubscriberState(ctx, 'nope', 'ada@example.com', 'Deleted')).toThrow('no list nope');
    expect(() => setSubscriberState(ctx, LIST, 'bo@example.com', 'Deleted')).toThrow(`no subscriber bo@example.com in list ${LIST}`);
  });
});

describe('confirmSubscriber', () => {
  it('activates an Unconfirmed subscriber with a Subscribe event, and refuses any other', () => {
    const ctx = contextWith('Unconfirmed');
    confirmSubscriber(ctx, LIST, 'ada@example.com');
    expect(ctx.events.map((e) => e.event.Type)).toEqual(['Subscribe']);
    expect(() => confirmSubscriber(ctx, LIST, 'ada@example.com')).toThrow('ada@example.com is Active, not Unconfirmed');
  });
});
