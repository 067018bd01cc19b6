// The campaign look-up of the campaign routes, and the number of generated
// unsubscribe records of a campaign (src/sandbox/campaign-lookup.ts).
import { describe, expect, it } from 'vitest';
import { requireCampaign, unsubscribeCount } from '../../src/sandbox/campaign-lookup.js';
import { RouteError } from '../../src/sandbox/router.js';
import type { SandboxCampaign } from '../../src/sandbox/types-campaigns.js';
import { bareContext } from '../helpers/sandbox-context.js';

const ID = 'c0000000-0000-4000-8000-00000000000a';
const campaign = (extra: Partial<SandboxCampaign>) => ({ CampaignID: ID, Status: 'Sent', Unsubscribes: { Seed: 1, Share: 0.2 }, ...extra }) as SandboxCampaign;

const status = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof RouteError) return error.response.status;
    throw error;
  }
  return undefined;
};

describe('requireCampaign', () => {
  it('finds a campaign by id in any letter case; 400 for a malformed id, 404 for an unknown one', () => {
    const state = bareContext({ campaigns: { [ID]: campaign({}) } }).state;
    expect(requireCampaign(state, ID.toUpperCase()).CampaignID).toBe(ID);
    expect(status(() => requireCampaign(state, 'x'))).toBe(400);
    expect(status(() => requireCampaign(state, 'c0000000-0000-4000-8000-00000000000b'))).toBe(404);
  });
});

describe('unsubscribeCount', () => {
  it('is the option times the campaign share for a sent campaign, none otherwise', () => {
    const ctx = bareContext({}, { unsubscribesPerCampaign: 1001 });
    expect(unsubscribeCount(ctx, campaign({}))).toBe(200);
    expect(unsubscribeCount(ctx, campaign({ Status: 'Draft' }))).toBe(0);
    expect(unsubscribeCount(ctx, campaign({ Unsubscribes: null }))).toBe(0);
  });
});
