// Campaign reports over HTTP (service-spec.md "Campaign summary", "Scheduled
// campaigns", "Sent campaigns").
import { describe, expect, it } from 'vitest';
import { SEED_CAMPAIGN_IDS } from '../../../src/sandbox/seed-campaigns.js';
import { useSandbox } from '../../helpers/sandbox.js';

const C = SEED_CAMPAIGN_IDS;
const MISSING = '99999999-9999-4999-8999-999999999999';

const c = useSandbox();

function expectStatus(answer: { status: number; body: any }, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ status, message: expect.any(String) });
}

describe('campaign summary', () => {
  it('gives the counters of a sent campaign, with Unsubscribed matching the unsubscribe records', async () => {
    const answer = await c.call('GET', `/email/campaigns/${C.welcome}/summary`);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(
      ['Bounced', 'Clicks', 'Forwards', 'Likes', 'Mentions', 'Recipients', 'SpamComplaints', 'TotalOpened', 'UniqueOpened', 'Unsubscribed', 'WebVersionTextURL', 'WebVersionURL', 'WorldviewURL'].sort(),
    );
    expect(answer.body.Unsubscribed).toBe(2500);
    expect(answer.body.UniqueOpened).toBeLessThanOrEqual(answer.body.Recipients);
  });

  it('answers a generic 400 for a campaign not sent and 404 for an unknown one', async () => {
    expectStatus(await c.call('GET', `/email/campaigns/${C.autumnDraft}/summary`), 400);
    expectStatus(await c.call('GET', `/email/campaigns/${MISSING}/summary`), 404);
  });
});

describe('scheduled and sent lists', () => {
  it('lists scheduled campaigns, soonest first, with the spec fields', async () => {
    const answer = await c.call('GET', '/email/clients/scheduled');
    expect(answer.status).toBe(200);
    expect(answer.body.map((s: any) => s.CampaignID)).toEqual([C.earlyAccessInvite, C.summerLaunch, C.customerSurvey]);
    expect(answer.body[0]).toEqual({
      Name: 'Early Access Invite',
      Subject: 'You are in',
      FromName: expect.any(String),
      FromEmail: expect.any(String),
      ReplyTo: expect.any(String),
      CampaignID: C.earlyAccessInvite,
      DateCreated: '2024-04-04 10:00:00',
      PreviewURL: expect.stringMatching(/^https:\/\//),
      PreviewTextURL: expect.stringMatching(/^https:\/\//),
      DateScheduled: expect.stringMatching(/^\d{4}-\d{2}-\d{2} 06:00:00$/),
      ScheduledTimeZone: '(GMT+10:00) Canberra, Melbourne, Sydney',
    });
  });

  it('lists sent campaigns, most recent first, with the spec fields', async () => {
    const answer = await c.call('GET', '/email/clients/campaigns');
    expect(answer.status).toBe(200);
    expect(answer.body.map((s: any) => s.CampaignID)).toEqual([C.springSale, C.februaryUpdate, C.welcome]);
    expect(answer.body[2]).toEqual({
      Name: 'Welcome to the Newsletter',
      Subject: 'Welcome aboard',
      FromName: expect.any(String),
      FromEmail: expect.any(String),
      ReplyTo: expect.any(String),
      CampaignID: C.welcome,
      WebVersionURL: expect.stringMatching(/^https:\/\//),
      WebVersionTextURL: expect.stringMatching(/^https:\/\//),
      SentDate: '2024-02-01 10:00:00',
      TotalRecipients: 148210,
    });
  });
});
