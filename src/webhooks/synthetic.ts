// Synthetic events for `webhooks trigger`, per type as service-spec.md "Events" lists them, so a
// user can exercise a receiver without a real list. Deterministic, so receiver bugs repeat.
import type { WebhookEvent, WebhookEventType } from './events.js';

/** The spec names no marker for manually entered subscribers; this is the sandbox's. */
export const MANUAL_SIGNUP_MARKER = 'Manually Entered';

const FIRST = ['Ada', 'Grace', 'Alan', 'Margaret', 'Linus', 'Ken', 'Dennis', 'Barbara', 'Edsger', 'Frances', 'John', 'Radia', 'Donald', 'Katherine', 'Tim', 'Hedy'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Hamilton', 'Torvalds', 'Thompson', 'Ritchie', 'Liskov', 'Dijkstra', 'Allen', 'McCarthy', 'Perlman', 'Knuth', 'Johnson', 'Berners-Lee', 'Lamarr'];
// Reserved documentation domains and address ranges (RFC 2606, RFC 5737, RFC 3849): never anyone's real data.
const DOMAINS = ['example.com', 'example.org', 'example.net'];
const SIGNUP_ADDRESSES = (i: number) => [`203.0.113.${(i % 254) + 1}`, `198.51.100.${(i % 254) + 1}`, `2001:db8::${(i % 0xffff).toString(16)}`, MANUAL_SIGNUP_MARKER];
const PLANS = ['Free', 'Pro', 'Enterprise'];
const INTERESTS = ['News', 'Events', 'Offers', 'Product updates'];
/** The inactive states of service-spec.md "States and transitions". */
const INACTIVE_STATES = ['Unsubscribed', 'Unsubscribed', 'Bounced', 'Deleted'];

export interface SyntheticOptions {
  type: WebhookEventType;
  count: number;
  /** Earlier events are one second apart before it. */
  end: Date;
}

export function* syntheticEvents({ type, count, end }: SyntheticOptions): Generator<WebhookEvent> {
  for (let i = 0; i < count; i++) {
    yield syntheticEvent(type, i, new Date(end.getTime() - (count - 1 - i) * 1000));
  }
}

function syntheticEvent(type: WebhookEventType, i: number, at: Date): WebhookEvent {
  const first = FIRST[i % FIRST.length]!;
  // (i, i + ⌊i/16⌋) mod 16 pairs every first name with every last name once per 256 events.
  const last = LAST[(i + Math.floor(i / FIRST.length)) % LAST.length]!;
  const name = `${first} ${last}`;
  const address = (domain: string) => `${first}.${last}${i >= FIRST.length * LAST.length ? Math.floor(i / (FIRST.length * LAST.length)) : ''}@${domain}`.toLowerCase();
  const email = address(DOMAINS[i % DOMAINS.length]!);
  const date = serviceDateTime(at);
  const customFields = [
    { Key: '[Plan]', Value: PLANS[i % PLANS.length]! },
    // A MultiSelectMany field repeats its Key (service-spec.md "Custom field value" rule 1).
    { Key: '[Interests]', Value: INTERESTS[i % INTERESTS.length]! },
    { Key: '[Interests]', Value: INTERESTS[(i + 1) % INTERESTS.length]! },
    // Dates year first (service-spec.md "Custom field value" rule 3).
    { Key: '[Birthday]', Value: `${1950 + (i % 50)}/${pad((i % 12) + 1)}/${pad((i % 28) + 1)}` },
  ];
  switch (type) {
    case 'Subscribe':
      return { Type: 'Subscribe', Date: date, EmailAddress: email, Name: name, CustomFields: customFields, SignupIPAddress: SIGNUP_ADDRESSES(i)[i % 4]! };
    case 'Update':
      return {
        Type: 'Update',
        Date: date,
        OldEmailAddress: address(DOMAINS[(i + 1) % DOMAINS.length]!),
        EmailAddress: email,
        Name: name,
        State: 'Active',
        CustomFields: customFields,
      };
    case 'Deactivate':
      return { Type: 'Deactivate', Date: date, EmailAddress: email, Name: name, State: INACTIVE_STATES[i % INACTIVE_STATES.length]!, CustomFields: customFields };
  }
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** UTC here, as in the sandbox. */
export function serviceDateTime(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}
