// Fixed ids of the seed that both halves of it use (seed.ts for lists and
// subscribers, seed-campaigns.ts for the campaign side), kept apart so that
// neither seed module imports the other.

export const SEED_LIST_IDS = {
  /** Single opt-in, with a custom field of every DataType. */
  newsletter: '11111111-1111-4111-8111-111111111111',
  customers: '22222222-2222-4222-8222-222222222222',
  /** Confirmed (double) opt-in. */
  earlyAccess: '33333333-3333-4333-8333-333333333333',
} as const;

/** The sent campaign the seeded subscriber histories refer to. */
export const SEED_SENT_CAMPAIGN = {
  CampaignID: 'c0000000-0000-4000-8000-000000000001',
  Name: 'Welcome to the Newsletter',
} as const;
