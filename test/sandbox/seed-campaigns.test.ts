// The campaign side of the seed and the generated unsubscribe records
// (src/sandbox/seed-campaigns.ts).
import { describe, expect, it } from 'vitest';
import { campaignAccount, generateUnsubscribeRecords, SEED_CAMPAIGN_IDS, seedCampaigns } from '../../src/sandbox/seed-campaigns.js';
import { emptyState, seedState } from '../../src/sandbox/seed.js';

const now = new Date('2025-03-04T05:06:07Z');
const SENT = '2024-02-01T10:00:00.000Z';

describe('generateUnsubscribeRecords', () => {
  const records = generateUnsubscribeRecords(101, 5000, SENT, ['l1', 'l2']);

  it('is pure: the same arguments give the same records, another seed others', () => {
    expect(generateUnsubscribeRecords(101, 5000, SENT, ['l1', 'l2'])).toEqual(records);
    expect(generateUnsubscribeRecords(102, 5000, SENT, ['l1', 'l2']).emails).not.toEqual(records.emails);
  });

  it('gives distinct lower-case addresses at reserved domains, and documentation IP addresses', () => {
    expect(records.count).toBe(5000);
    expect(new Set(records.emails).size).toBe(5000);
    for (const email of records.emails) expect(email).toMatch(/^[a-z]+\.[a-z]+\.\d+@(example\.(com|org|net)|mail\.example|inbox\.example)$/);
    for (const ip of records.ips) expect(ip).toMatch(/^(192\.0\.2|198\.51\.100|203\.0\.113)\.([1-9]\d?|1\d\d|2[0-4]\d|25[0-4])$/);
  });

  it('dates whole seconds from a minute after the send to within 30 days, on the campaign lists', () => {
    const sent = Date.parse(SENT);
    for (const date of records.dates) {
      expect(date % 1000).toBe(0);
      expect(date).toBeGreaterThanOrEqual(sent + 60_000);
      expect(date).toBeLessThanOrEqual(sent + 30 * 86_400_000 + 60_000);
    }
    expect(new Set(records.listIds)).toEqual(new Set(['l1', 'l2']));
  });

  it('gives no records for a count of 0, and a placeholder list for a campaign sent to segments', () => {
    expect(generateUnsubscribeRecords(1, 0, SENT, []).count).toBe(0);
    expect(generateUnsubscribeRecords(1, 3, SENT, []).listIds).toEqual(['00000000-0000-4000-8000-000000000000', '00000000-0000-4000-8000-000000000000', '00000000-0000-4000-8000-000000000000']);
  });
});

describe('seedCampaigns', () => {
  it('seeds sent, scheduled and draft campaigns, scheduled ones in the future of the moment', () => {
    const state = seedState(now);
    const statuses = Object.values(state.campaigns).map((c) => c.Status);
    expect(new Set(statuses)).toEqual(new Set(['Sent', 'Scheduled', 'Draft']));
    expect(state.campaigns[SEED_CAMPAIGN_IDS.welcome]).toMatchObject({ Status: 'Sent' });
    for (const c of Object.values(state.campaigns).filter((c) => c.Status === 'Scheduled')) expect(Date.parse(c.DateScheduled!)).toBeGreaterThan(now.getTime());
  });

  it('is the same for the same moment', () => {
    const a = emptyState();
    const b = emptyState();
    seedCampaigns(a, now);
    seedCampaigns(b, now);
    expect(a).toEqual(b);
  });
});

describe('campaignAccount', () => {
  it('creates the settings with defaults on first use (a state file of an older build) and keeps them', () => {
    const state = emptyState();
    expect(state.campaignAccount).toBeUndefined();
    const settings = campaignAccount(state);
    expect(state.campaignAccount).toBe(settings);
    expect(campaignAccount(state)).toBe(settings);
  });
});
