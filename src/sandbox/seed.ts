// The deterministic seed: fixed ids, names and dates so tests and docs can rely
// on them (documented in docs/sandbox.md). Lists must be seeded because the
// API has no call that creates one.
import { seedCampaigns } from './seed-campaigns.js';
import { SEED_LIST_IDS, SEED_SENT_CAMPAIGN } from './seed-ids.js';
import { fieldKeyFor } from './custom-field-values.js';
import { US_STATES } from './field-options.js';
import {
  STATE_VERSION,
  type CustomFieldDataType,
  type CustomFieldDefinition,
  type HistoryEntry,
  type State,
  type Subscriber,
  type SubscriberList,
  type SubscriberState,
} from './types.js';

const SEED_DATE = '2024-01-15T09:30:00.000Z';

function field(FieldName: string, DataType: CustomFieldDataType, FieldOptions: string[] = []): CustomFieldDefinition {
  return { FieldName, Key: fieldKeyFor(FieldName), DataType, FieldOptions, VisibleInPreferenceCenter: true };
}

function subscriber(
  EmailAddress: string,
  Name: string,
  State: SubscriberState,
  CustomFields: Record<string, string[]> = {},
  History: HistoryEntry[] = [],
  day = 15,
): Subscriber {
  const date = `2024-01-${String(day).padStart(2, '0')}T09:30:00.000Z`;
  return { EmailAddress, Name, State, CustomFields, ConsentToTrack: 'Yes', DateAdded: date, DateStateChanged: date, History };
}

function list(ListID: string, Name: string, ConfirmedOptIn: boolean, fields: CustomFieldDefinition[], subscribers: Subscriber[]): SubscriberList {
  const Subscribers: Record<string, Subscriber> = {};
  for (const s of subscribers) Subscribers[s.EmailAddress.toLowerCase()] = s;
  return { ListID, Name, ConfirmedOptIn, CustomFields: fields, Subscribers };
}

function campaignHistory(events: { Event: string; minute: number; Detail?: string }[]): HistoryEntry[] {
  return [
    {
      ID: SEED_SENT_CAMPAIGN.CampaignID,
      Type: 'Campaign',
      Name: SEED_SENT_CAMPAIGN.Name,
      Actions: events.map(({ Event, minute, Detail }) => ({
        Event,
        Date: `2024-02-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
        IPAddress: '192.0.2.10',
        Detail: Detail ?? '',
      })),
    },
  ];
}

export function emptyState(): State {
  return {
    version: STATE_VERSION,
    accountSuspended: false,
    suppression: {},
    lists: {},
    webhooks: [],
    segments: {},
    campaigns: {},
    templates: {},
    smartEmails: {},
    sendRecords: [],
    previewLog: [],
  };
}

export function seedState(now: Date): State {
  const state = emptyState();
  const newsletterFields = [
    field('Company', 'Text'),
    field('Age', 'Number'),
    field('Plan', 'MultiSelectOne', ['Free', 'Pro', 'Enterprise']),
    field('Interests', 'MultiSelectMany', ['News', 'Events', 'Offers', 'Product updates']),
    field('Birthday', 'Date'),
    field('Country', 'Country'),
    field('State', 'USState', [...US_STATES]),
  ];
  state.lists[SEED_LIST_IDS.newsletter] = list(SEED_LIST_IDS.newsletter, 'Newsletter', false, newsletterFields, [
    subscriber(
      'ada@example.com',
      'Ada Lovelace',
      'Active',
      {
        '[Company]': ['Analytical Engines'],
        '[Age]': ['36'],
        '[Plan]': ['Pro'],
        '[Interests]': ['News', 'Events'],
        '[Birthday]': ['1815-12-10'],
        '[Country]': ['United Kingdom'],
      },
      campaignHistory([
        { Event: 'Open', minute: 5 },
        { Event: 'Click', minute: 6, Detail: 'https://example.com/welcome' },
      ]),
      10,
    ),
    subscriber('grace@example.com', 'Grace Hopper', 'Active', { '[Interests]': ['Product updates'], '[State]': ['Virginia'] }, campaignHistory([{ Event: 'Open', minute: 12 }]), 11),
    subscriber('alan@example.com', 'Alan Turing', 'Active', { '[Plan]': ['Free'] }, [], 12),
    subscriber('pending@example.com', 'Pat Pending', 'Unconfirmed', {}, [], 13),
    subscriber('unsubscribed@example.com', 'Uma Unsubscribed', 'Unsubscribed', {}, [], 14),
    subscriber('bounced@example.com', 'Bo Bounced', 'Bounced', {}, [], 15),
    subscriber('deleted@example.com', 'Dee Deleted', 'Deleted', {}, [], 16),
    subscriber('suppressed@example.com', 'Sue Suppressed', 'Unsubscribed', {}, [], 17),
  ]);
  state.lists[SEED_LIST_IDS.customers] = list(
    SEED_LIST_IDS.customers,
    'Customers',
    false,
    [field('CustomerID', 'Text'), field('Tier', 'MultiSelectOne', ['Bronze', 'Silver', 'Gold'])],
    [
      subscriber('ada@example.com', 'Ada Lovelace', 'Active', { '[CustomerID]': ['C-1001'], '[Tier]': ['Gold'] }, [], 10),
      subscriber('margaret@example.com', 'Margaret Hamilton', 'Active', { '[CustomerID]': ['C-1002'] }, [], 18),
      subscriber('linus@example.com', 'Linus Torvalds', 'Active', { '[CustomerID]': ['C-1003'] }, [], 19),
      subscriber('grace@example.com', 'Grace Hopper', 'Unsubscribed', {}, [], 20),
      subscriber('ken@example.com', 'Ken Thompson', 'Bounced', {}, [], 21),
      subscriber('dennis@example.com', 'Dennis Ritchie', 'Deleted', {}, [], 22),
    ],
  );
  state.lists[SEED_LIST_IDS.earlyAccess] = list(SEED_LIST_IDS.earlyAccess, 'Early Access', true, [], [
    subscriber('ada@example.com', 'Ada Lovelace', 'Active', {}, [], 23),
    subscriber('early@example.com', 'Early Bird', 'Unconfirmed', {}, [], 24),
  ]);
  // Account-wide suppression: one address also on a list, one on no list.
  state.suppression['suppressed@example.com'] = SEED_DATE;
  state.suppression['blocked@example.com'] = SEED_DATE;

  seedCampaigns(state, now);
  return state;
}
