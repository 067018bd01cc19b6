// State moves that no endpoint of the spec makes (the service does them when
// a subscriber clicks an unsubscribe or verification link, bounces, or is
// deleted in the app). Exposed on RunningSandbox so tests can drive them.
import type { SandboxContext } from './router.js';
import { deactivateEvent, subscribeEvent } from './subscriber-events.js';
import type { SubscriberState } from './types.js';

export function setSubscriberState(ctx: SandboxContext, listId: string, email: string, to: SubscriberState): void {
  const list = ctx.state.lists[listId];
  if (!list) throw new Error(`no list ${listId}`);
  const subscriber = list.Subscribers[email.toLowerCase()];
  if (!subscriber) throw new Error(`no subscriber ${email} in list ${listId}`);
  if (subscriber.State === to) return;
  const from = subscriber.State;
  const at = ctx.now();
  ctx.store.mutate(() => {
    subscriber.State = to;
    subscriber.DateStateChanged = at.toISOString();
  });
  // service-spec.md "Events": Deactivate when moved to an inactive state;
  // Subscribe when moved from inactive to Active.
  if (to === 'Active') ctx.emitEvent(listId, subscribeEvent(subscriber, at));
  else if (from === 'Active' && to !== 'Unconfirmed') ctx.emitEvent(listId, deactivateEvent(subscriber, at));
}

/** The verification link of a confirmed opt-in list was clicked (spec "Events": Subscribe on a confirmed opt-in list). */
export function confirmSubscriber(ctx: SandboxContext, listId: string, email: string): void {
  const subscriber = ctx.state.lists[listId]?.Subscribers[email.toLowerCase()];
  if (!subscriber) throw new Error(`no subscriber ${email} in list ${listId}`);
  if (subscriber.State !== 'Unconfirmed') throw new Error(`${email} is ${subscriber.State}, not Unconfirmed`);
  setSubscriberState(ctx, listId, email, 'Active');
}
