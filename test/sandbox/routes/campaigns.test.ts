// Campaign endpoints over HTTP (service-spec.md "Endpoints" → "Campaigns",
// "States and transitions", draft-creation, preview and reading codes): one
// test per produced code and the unschedule transition. The unsubscribes
// listing is in campaign-unsubscribes.test.ts, the summary and the scheduled
// and sent lists in campaign-reports.test.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../../src/sandbox/index.js';
import { CREATED_CAMPAIGN_HEADER } from '../../../src/sandbox/routes/campaigns.js';
import { SEED_CAMPAIGN_IDS, SEED_SEGMENT_IDS } from '../../../src/sandbox/seed-campaigns.js';
import { startContentServer, type ContentServer } from '../../helpers/content-fixtures.js';
import { type SandboxClient, useSandbox, withSandbox } from '../../helpers/sandbox.js';

const C = SEED_CAMPAIGN_IDS;
const NEWSLETTER = SEED_LIST_IDS.newsletter;
const CUSTOMERS = SEED_LIST_IDS.customers;
const MISSING = '99999999-9999-4999-8999-999999999999';

let content: ContentServer;
beforeAll(async () => {
  content = await startContentServer();
});
afterAll(() => content.close());

const c = useSandbox();

function expectCoded(answer: { status: number; body: any; text?: string }, code: number) {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body).toMatchObject({ Code: code, Message: expect.any(String) });
}

function expectStatus(answer: { status: number; body: any }, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ status, message: expect.any(String) });
}

let draftCounter = 0;
function draft(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Name: `Draft ${++draftCounter}`,
    Subject: 'Hello',
    FromName: 'Example News',
    FromEmail: 'news@example.com',
    ReplyTo: 'replies@example.com',
    // A non-loopback URL: never fetched, so no content checks.
    HtmlUrl: 'https://content.example.com/newsletter.html',
    ListIDs: [NEWSLETTER],
    ...extra,
  };
}

const createDraft = (extra: Record<string, unknown> = {}) => c.call('POST', '/email/campaigns', draft(extra));

describe('create draft campaign', () => {
  it('answers 200 with an object keyed by each list id, and stores a draft', async () => {
    const answer = await createDraft({ ListIDs: [NEWSLETTER, CUSTOMERS], TextUrl: '' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ [NEWSLETTER]: '', [CUSTOMERS]: '' });
    const id = answer.headers.get(CREATED_CAMPAIGN_HEADER)!;
    expect(c.sandbox.state().campaigns[id]).toMatchObject({ Status: 'Draft', ListIDs: [NEWSLETTER, CUSTOMERS], SegmentIDs: [], TextUrl: null });
  });

  it('keys the answer by segment ids when the draft targets segments', async () => {
    const answer = await createDraft({ ListIDs: undefined, SegmentIDs: [SEED_SEGMENT_IDS.newsletterPro] });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ [SEED_SEGMENT_IDS.newsletterPro]: '' });
  });

  it('accepts personalisation tags with fallbacks in the sender fields', async () => {
    const answer = await createDraft({ FromName: '[SenderName,fallback=Example] News', FromEmail: '[SenderEmail,fallback=news@example.com]', ReplyTo: '[Desk,fallback=desk@example.com]' });
    expect(answer.status, answer.text).toBe(200);
  });

  it.each([
    [319, 'no name', { Name: '' }],
    [303, 'a name another campaign has (any case)', { Name: 'spring sale' }],
    [304, 'no subject', { Subject: undefined }],
    [305, 'no from name', { FromName: ' ' }],
    [307, 'an invalid from address', { FromEmail: 'news at example.com' }],
    [307, 'no from address', { FromEmail: undefined }],
    [308, 'no reply-to', { ReplyTo: '' }],
    [309, 'an invalid reply-to', { ReplyTo: 'replies@' }],
    [310, 'no HTML URL', { HtmlUrl: undefined }],
    [310, 'a relative HTML URL', { HtmlUrl: '/newsletter.html' }],
    [312, 'an invalid text URL', { TextUrl: 'not a url' }],
    [313, 'a list id that is not a UUID', { ListIDs: ['abc'] }],
    [313, 'a list that does not exist', { ListIDs: [MISSING] }],
    [313, 'ListIDs that is not an array', { ListIDs: NEWSLETTER }],
    [314, 'a segment that does not exist', { ListIDs: [], SegmentIDs: [MISSING] }],
    [315, 'neither lists nor segments', { ListIDs: [] }],
    [315, 'both lists and segments', { SegmentIDs: [SEED_SEGMENT_IDS.newsletterPro] }],
    [322, 'a reserved tag in the from name', { FromName: '[firstname] from Example' }],
    [323, 'a tag without fallback in the from address', { FromEmail: '[SenderEmail]' }],
    [324, 'a reserved tag in the from address', { FromEmail: '[email,fallback=a@example.com]' }],
    [325, 'a tag without fallback in the reply-to', { ReplyTo: '[Desk]@example.com' }],
    [326, 'a reserved tag in the reply-to', { ReplyTo: '[Email]' }],
  ])('gives %i for %s', async (code, _name, extra) => {
    const before = Object.keys(c.sandbox.state().campaigns).length;
    expectCoded(await createDraft(extra), code);
    expect(Object.keys(c.sandbox.state().campaigns)).toHaveLength(before);
  });

  describe('content checks on loopback HTML', () => {
    it.each([
      [311, 'content that is not HTML', 'plain words, no markup'],
      [4201, 'Flash', '<object type="application/x-shockwave-flash" data="a.swf"></object>'],
      [4202, 'a script', '<p>hi</p><script>alert(1)</script>'],
      [4203, 'a Java applet', '<applet code="Game.class"></applet>'],
      [318, 'only a text-style unsubscribe tag', '<p>Bye: [unsubscribe]</p>'],
      [4302, 'unsubscribe text under 3 characters', '<unsubscribe>x</unsubscribe>'],
      [4303, 'a link inside the unsubscribe tag', '<unsubscribe><a href="https://e.com">Leave</a></unsubscribe>'],
      [4304, 'an unclosed unsubscribe tag', '<unsubscribe>Leave'],
      [4306, 'unsubscribe inside another service tag', '<webversion><unsubscribe>Leave</unsubscribe></webversion>'],
      [4307, 'unsubscribe inside a link', '<a href="https://e.com"><unsubscribe>Leave</unsubscribe></a>'],
      [316, 'a link that cannot be imported', '<a href="https://exa mple.com">x</a>'],
      [317, 'a link that is too long', `<a href="https://e.com/${'x'.repeat(2100)}">x</a>`],
    ])('gives %i for %s', async (code, _name, html) => {
      const url = content.put(`/campaign-${code}.html`, html);
      expectCoded(await createDraft({ HtmlUrl: url }), code);
    });

    it('accepts good loopback HTML and reads it from the URL', async () => {
      const url = content.put('/good.html', '<html><body><p>Hi</p><unsubscribe>Unsubscribe</unsubscribe></body></html>');
      const before = content.hits.length;
      expect((await createDraft({ HtmlUrl: url })).status).toBe(200);
      expect(content.hits.slice(before)).toEqual(['/good.html']);
    });

    it('refuses a file: HtmlUrl with 310, the same answer whether or not the file exists, without reading it', async () => {
      // Anyone with the (public) sandbox key could otherwise tell which files exist on the machine.
      const dir = mkdtempSync(join(tmpdir(), 'campaign-html-'));
      writeFileSync(join(dir, 'bad.html'), '<p>x</p><script>1</script>'); // read, it would give 4202
      const existing = await createDraft({ Name: 'Probe', HtmlUrl: pathToFileURL(join(dir, 'bad.html')).href });
      const missing = await createDraft({ Name: 'Probe', HtmlUrl: pathToFileURL(join(dir, 'none.html')).href });
      expectCoded(existing, 310);
      expect({ status: missing.status, text: missing.text }).toEqual({ status: existing.status, text: existing.text });
      expect(Object.values(c.sandbox.state().campaigns).filter((x) => x.Name === 'Probe')).toEqual([]);
    });

    it.each(['file:///etc/hostname', 'ftp://127.0.0.1/a.html', 'data:text/html,<p>x</p>', 'javascript:alert(1)'])('refuses the HtmlUrl %s with 310 and a TextUrl of the same scheme with 312', async (url) => {
      expectCoded(await createDraft({ HtmlUrl: url }), 310);
      expectCoded(await createDraft({ TextUrl: url }), 312);
    });

    it('skips content checks when the loopback URL gives no document', async () => {
      expect((await createDraft({ HtmlUrl: `${content.url}/absent.html` })).status).toBe(200);
    });
  });
});

describe('send campaign preview', () => {
  const preview = (id: string, body: unknown) => c.call('POST', `/email/campaigns/${id}/sendpreview`, body);

  it('answers 200 and logs the addresses sent', async () => {
    const answer = await preview(C.autumnDraft, { PreviewRecipients: ['me@example.com', 'you@example.com'] });
    expect(answer.status, answer.text).toBe(200);
    expect(c.sandbox.state().previewLog).toEqual([expect.objectContaining({ CampaignID: C.autumnDraft, Recipients: 2 })]);
  });

  it('gives 376 for a draft without content', async () => {
    expectCoded(await preview(C.contentlessDraft, { PreviewRecipients: ['me@example.com'] }), 376);
  });

  it('gives 340 when the campaign segments have no active members', async () => {
    const segment = await c.call('POST', `/email/segments/${NEWSLETTER}`, { Title: 'Nobody', RuleGroups: [{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @nowhere.invalid' }] }] });
    const created = await createDraft({ ListIDs: [], SegmentIDs: [segment.body] });
    const id = created.headers.get(CREATED_CAMPAIGN_HEADER)!;
    expectCoded(await preview(id, { PreviewRecipients: ['me@example.com'] }), 340);
  });

  it('gives 370 without preview recipients', async () => {
    expectCoded(await preview(C.autumnDraft, { PreviewRecipients: [] }), 370);
    expectCoded(await preview(C.autumnDraft, {}), 370);
  });

  it('gives 371 listing each invalid address as a Recipient entry', async () => {
    const answer = await preview(C.autumnDraft, { PreviewRecipients: ['ok@example.com', 'nope', 'also@bad'] });
    expectCoded(answer, 371);
    expect(answer.body.ResultData).toEqual([{ Recipient: 'nope' }, { Recipient: 'also@bad' }]);
  });

  it('gives 373 when the personalisation address is not a recipient of the campaign', async () => {
    expectCoded(await preview(C.autumnDraft, { PreviewRecipients: ['me@example.com'], Personalize: 'margaret@example.com' }), 373);
    expect((await preview(C.autumnDraft, { PreviewRecipients: ['me@example.com'], Personalize: 'ada@example.com' })).status).toBe(200);
    expect((await preview(C.autumnDraft, { PreviewRecipients: ['me@example.com'], Personalize: 'Fallback' })).status).toBe(200);
  });

  it('gives 374 for more than 15 recipients', async () => {
    const sixteen = Array.from({ length: 16 }, (_, i) => `p${i}@example.com`);
    expectCoded(await preview(C.autumnDraft, { PreviewRecipients: sixteen }), 374);
    expect((await preview(C.autumnDraft, { PreviewRecipients: sixteen.slice(0, 15) })).status).toBe(200);
  });

  it('gives 333 once the test campaign allowance is used up', async () => {
    c.sandbox.state().campaignAccount!.testCampaignAllowance = 1;
    expect((await preview(C.autumnDraft, { PreviewRecipients: ['me@example.com'] })).status).toBe(200);
    expectCoded(await preview(C.autumnDraft, { PreviewRecipients: ['me@example.com'] }), 333);
  });
});

describe('preview sending rate (375)', () => {
  let clock = Date.parse('2025-06-01T12:00:00Z');
  let rc: SandboxClient;
  beforeEach(async () => {
    rc = await withSandbox({ now: () => new Date(clock) });
  });
  afterEach(() => rc.sandbox.stop());

  it('allows 240 addresses in 24 hours, refuses the next, and allows again once the window has passed', async () => {
    const fifteen = Array.from({ length: 15 }, (_, i) => `r${i}@example.com`);
    for (let i = 0; i < 16; i++) {
      const answer = await rc.call('POST', `/email/campaigns/${C.autumnDraft}/sendpreview`, { PreviewRecipients: fifteen });
      expect(answer.status, answer.text).toBe(200);
      clock += 60_000;
    }
    const start = clock - 16 * 60_000;
    const send = (addresses: string[]) => rc.call('POST', `/email/campaigns/${C.autumnDraft}/sendpreview`, { PreviewRecipients: addresses });
    expectCoded(await send(['one@example.com']), 375);
    // 24 hours and 30 seconds after the first send, only that send has left the window: 15 addresses are free.
    clock = start + 24 * 3_600_000 + 30_000;
    expect((await send(fifteen)).status).toBe(200);
    expectCoded(await send(['one@example.com']), 375);
  });
});

describe('unschedule campaign', () => {
  it('moves a scheduled campaign back to drafts, then answers 341', async () => {
    const scheduledBefore = (await c.call('GET', '/email/clients/scheduled')).body.map((s: any) => s.CampaignID);
    expect(scheduledBefore).toContain(C.summerLaunch);
    const answer = await c.call('POST', `/email/campaigns/${C.summerLaunch}/unschedule`);
    expect(answer.status).toBe(200);
    expect(c.sandbox.state().campaigns[C.summerLaunch]).toMatchObject({ Status: 'Draft', DateScheduled: null, ScheduledTimeZone: null });
    const scheduledAfter = (await c.call('GET', '/email/clients/scheduled')).body.map((s: any) => s.CampaignID);
    expect(scheduledAfter).not.toContain(C.summerLaunch);
    expectCoded(await c.call('POST', `/email/campaigns/${C.summerLaunch}/unschedule`), 341);
  });

  it('gives 341 for drafts and sent campaigns, 404 for an unknown id and a generic 400 for a malformed one', async () => {
    expectCoded(await c.call('POST', `/email/campaigns/${C.autumnDraft}/unschedule`), 341);
    expectCoded(await c.call('POST', `/email/campaigns/${C.welcome}/unschedule`), 341);
    expect(c.sandbox.state().campaigns[C.welcome].Status).toBe('Sent');
    expectStatus(await c.call('POST', `/email/campaigns/${MISSING}/unschedule`), 404);
    expectStatus(await c.call('POST', '/email/campaigns/nope/unschedule'), 400);
  });
});

describe('state across restarts', () => {
  it('keeps a created draft, an unscheduled campaign, a new segment and the preview log in the --state file', async () => {
    const statePath = join(mkdtempSync(join(tmpdir(), 'campaign-state-')), 'state.json');
    const first = await withSandbox({ statePath });
    const segment = (await first.call('POST', `/email/segments/${NEWSLETTER}`, { Title: 'Kept', RuleGroups: [{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS ada@' }] }] })).body;
    const created = await first.call('POST', '/email/campaigns', draft({ ListIDs: [], SegmentIDs: [segment] }));
    const id = created.headers.get(CREATED_CAMPAIGN_HEADER)!;
    expect((await first.call('POST', `/email/campaigns/${C.summerLaunch}/unschedule`)).status).toBe(200);
    expect((await first.call('POST', `/email/campaigns/${id}/sendpreview`, { PreviewRecipients: ['me@example.com'] })).status).toBe(200);
    await first.sandbox.stop();

    const second = await withSandbox({ statePath });
    try {
      expect((await second.call('GET', `/email/segments/${segment}`)).body).toMatchObject({ Title: 'Kept', ActiveSubscribers: 1 });
      expect(second.sandbox.state().campaigns[id]).toMatchObject({ Status: 'Draft', SegmentIDs: [segment] });
      expectCoded(await second.call('POST', `/email/campaigns/${C.summerLaunch}/unschedule`), 341);
      expect(second.sandbox.state().previewLog).toHaveLength(1);
      expect(second.sandbox.state().campaignAccount!.testCampaignsUsed).toBe(1);
    } finally {
      await second.sandbox.stop();
    }
  });
});
