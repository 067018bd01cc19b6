// A SandboxContext without a server, for testing the sandbox's look-ups and
// state moves directly: a state the test builds, a store whose mutate() just
// runs the change, a fixed clock, and the events emitted, collected.
import type { ResolvedSandboxOptions, SandboxContext } from '../../src/sandbox/router.js';
import type { Store } from '../../src/sandbox/store.js';
import type { State, Subscriber, WebhookEvent } from '../../src/sandbox/types.js';
import { UnsubscribeIndexes } from '../../src/sandbox/unsubscribe-index.js';

export interface BareContext extends SandboxContext {
  events: { listId: string; event: WebhookEvent }[];
  mutations: number;
}

export function bareContext(state: Partial<State>, options: Partial<ResolvedSandboxOptions> = {}, now = new Date('2025-03-04T05:06:07Z')): BareContext {
  const full = { lists: {}, campaigns: {}, segments: {}, ...state } as State;
  const context: BareContext = {
    events: [],
    mutations: 0,
    store: {
      state: full,
      mutate<T>(change?: (state: State) => T): T | undefined {
        context.mutations++;
        return change?.(full);
      },
    } as unknown as Store,
    get state() {
      return full;
    },
    now: () => now,
    emitEvent(listId, event) {
      context.events.push({ listId, event });
    },
    wantsEvents: () => true,
    options: { unsubscribesPerCampaign: 2500, ...options } as ResolvedSandboxOptions,
    unsubscribeIndexes: new UnsubscribeIndexes(),
  };
  return context;
}

export function subscriber(email: string, extra: Partial<Subscriber> = {}): Subscriber {
  return {
    EmailAddress: email,
    Name: 'Ada',
    State: 'Active',
    CustomFields: {},
    ConsentToTrack: 'Yes',
    DateAdded: '2024-01-01T00:00:00.000Z',
    DateStateChanged: '2024-01-01T00:00:00.000Z',
    History: [],
    ...extra,
  };
}
