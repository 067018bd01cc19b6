import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { SEED_CAMPAIGN_IDS, SEED_SEGMENT_IDS } from '../../src/sandbox/seed-campaigns.js';
import { runCli } from '../helpers/cli.js';
import { jsonError, useCommandSandbox } from '../helpers/sandbox.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const C = SEED_CAMPAIGN_IDS;

const s = useCommandSandbox();

let serial = 0;
/** A create command line that passes every client-side check; `overrides` replace or drop (undefined) flags. */
function createArgs(overrides: Record<string, string | string[] | undefined> = {}): string[] {
  const flags: Record<string, string | string[] | undefined> = {
    '--name': `Campaign ${++serial}`,
    '--subject': 'News',
    '--from-name': 'Ada',
    '--from-email': 'ada@example.com',
    '--reply-to': 'replies@example.com',
    '--html-url': 'https://content.example.com/june.html',
    '--list': [SEED_LIST_IDS.newsletter],
    ...overrides,
  };
  const argv = ['campaigns', 'create'];
  for (const [flag, value] of Object.entries(flags)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) argv.push(flag, v);
  }
  return argv;
}

describe('campaigns create', () => {
  it('POSTs the draft campaign with the service field names and prints the new id the sandbox sends in its header', async () => {
    const r = await s.emailSent(createArgs({ '--name': 'June news', '--text-url': 'https://content.example.com/june.txt', '--list': [SEED_LIST_IDS.newsletter, SEED_LIST_IDS.customers] }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({ method: 'POST', path: '/email/campaigns', status: 200 });
    expect(r.sent[0]!.body).toEqual({
      Name: 'June news',
      Subject: 'News',
      FromName: 'Ada',
      FromEmail: 'ada@example.com',
      ReplyTo: 'replies@example.com',
      HtmlUrl: 'https://content.example.com/june.html',
      TextUrl: 'https://content.example.com/june.txt',
      ListIDs: [SEED_LIST_IDS.newsletter, SEED_LIST_IDS.customers],
    });
    const id = r.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.sandbox.state().campaigns[id]).toMatchObject({ Name: 'June news', Status: 'Draft' });
    // The id is usable next: the draft takes a preview.
    const preview = await s.email(['campaigns', 'preview', id, '--to', 'ada@example.com']);
    expect(preview.code, preview.stderr).toBe(0);
  });

  it('an answer that carries no id (the spec keys it by target) prints none on stdout and says so, without pointing to scheduled campaigns', async () => {
    const server = await startScriptedServer();
    try {
      server.reply({ status: 201, body: { [SEED_LIST_IDS.newsletter]: '' } });
      const r = await runCli(createArgs({ '--name': 'June news' }), { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' } });
      expect(r.code, r.stderr).toBe(0);
      // A list id would pass for the campaign's in `id=$(…)`.
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^warning: draft campaign "June news" created for 1 list, but the service's answer carries no campaign id/);
      expect(lines[0]).not.toContain('campaigns scheduled');
    } finally {
      await server.close();
    }
  });

  it('sends personalised from and reply-to addresses (tags with fallbacks) as typed: the service owns 322-326', async () => {
    const r = await s.emailSent(createArgs({ '--from-email': '[Sender,fallback=news@acme.example.com]', '--reply-to': '[AccountManager,fallback=help@acme.example.com]' }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]!.body).toMatchObject({ FromEmail: '[Sender,fallback=news@acme.example.com]', ReplyTo: '[AccountManager,fallback=help@acme.example.com]' });
    // A tag without its fallback is the service's to refuse, with its own code.
    const missing = await s.emailSent(createArgs({ '--from-email': '[Sender]' }));
    expect(missing.code).toBe(1);
    expect(missing.sent).toHaveLength(1);
    expect(missing.stderr).toMatch(/^error 323: /);
  });

  it('sends SegmentIDs without ListIDs for --segment, and prints the service answer unchanged with --json', async () => {
    const r = await s.emailSent([...createArgs({ '--list': undefined, '--segment': [SEED_SEGMENT_IDS.newsletterPro] }), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const body = r.sent[0]!.body as Record<string, unknown>;
    expect(body.SegmentIDs).toEqual([SEED_SEGMENT_IDS.newsletterPro]);
    expect(body).not.toHaveProperty('ListIDs');
    expect(body).not.toHaveProperty('TextUrl');
    expect(JSON.parse(r.stdout)).toEqual({ [SEED_SEGMENT_IDS.newsletterPro]: '' });
  });

  it.each([
    ['--name', 319],
    ['--subject', 304],
    ['--from-name', 305],
    ['--from-email', 307],
    ['--reply-to', 308],
    ['--html-url', 310],
  ])('refuses a missing %s with %i', async (flag, code) => {
    await s.expectRefused(createArgs({ [flag]: undefined }), code, new RegExp(`${flag} is required`));
    await s.expectRefused(createArgs({ [flag]: '  ' }), code);
  });

  it('refuses an invalid from address with 307 and an invalid reply-to with 309', async () => {
    await s.expectRefused(createArgs({ '--from-email': 'ada@' }), 307, /--from-email is not a valid email address: "ada@"/);
    await s.expectRefused(createArgs({ '--reply-to': 'replies example.com' }), 309, /--reply-to is not a valid email address/);
  });

  it('refuses an HTML URL that is not http(s) with 310 and an invalid text URL with 312', async () => {
    await s.expectRefused(createArgs({ '--html-url': 'content/june.html' }), 310, /--html-url must be an absolute http/);
    await s.expectRefused(createArgs({ '--html-url': 'ftp://example.com/june.html' }), 310);
    await s.expectRefused(createArgs({ '--text-url': 'june.txt' }), 312, /--text-url/);
  });

  it('refuses neither and both of --list and --segment with 315', async () => {
    await s.expectRefused(createArgs({ '--list': undefined }), 315, /--list or --segment is required/);
    await s.expectRefused(createArgs({ '--segment': [SEED_SEGMENT_IDS.newsletterPro] }), 315, /not both/);
  });

  it('refuses list ids that are not UUIDs with 313 and segment ids with 314', async () => {
    await s.expectRefused(createArgs({ '--list': [SEED_LIST_IDS.newsletter, 'newsletter'] }), 313, /--list must be a UUID/);
    await s.expectRefused(createArgs({ '--list': undefined, '--segment': ['pro'] }), 314, /--segment must be a UUID/);
  });

  it('surfaces the service refusing a duplicate name with 303 and an unknown list with 313', async () => {
    const dup = await s.email(createArgs({ '--name': 'Spring Sale' }));
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/^error 303: /);
    const unknown = await s.email([...createArgs({ '--list': ['99999999-9999-4999-8999-999999999999'] }), '--json']);
    expect(unknown.code).toBe(1);
    expect(jsonError(unknown.stderr)).toMatchObject({ status: 400, code: 313 });
  });

  it('never repeats a creation after a 500', async () => {
    s.sandbox.failNext({ method: 'POST', path: /^\/email\/campaigns$/, status: 500 });
    const r = await s.emailSent(createArgs());
    expect(r.code).toBe(1);
    expect(r.sent).toHaveLength(1);
  });
});

describe('campaigns preview', () => {
  const to = (...addresses: string[]) => addresses.flatMap((a) => ['--to', a]);

  it('POSTs PreviewRecipients to /sendpreview and reports on stderr only', async () => {
    const r = await s.emailSent(['campaigns', 'preview', '--campaign', C.autumnDraft, ...to('ada@example.com', 'bo@example.com')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({ method: 'POST', path: `/email/campaigns/${C.autumnDraft}/sendpreview`, status: 200 });
    expect(r.sent[0]!.body).toEqual({ PreviewRecipients: ['ada@example.com', 'bo@example.com'] });
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Sent a preview .* to 2 addresses/);
  });

  it('refuses no recipient with 370 and more than 15 with 374', async () => {
    await s.expectRefused(['campaigns', 'preview', '--campaign', C.autumnDraft], 370, /--to is required/);
    const sixteen = Array.from({ length: 16 }, (_, i) => `p${i}@example.com`);
    await s.expectRefused(['campaigns', 'preview', '--campaign', C.autumnDraft, ...to(...sixteen)], 374, /at most 15 preview recipients per call; got 16/);
  });

  it('accepts exactly 15 recipients', async () => {
    const fifteen = Array.from({ length: 15 }, (_, i) => `p${i}@example.com`);
    const r = await s.emailSent(['campaigns', 'preview', '--campaign', C.autumnDraft, ...to(...fifteen)]);
    expect(r.code, r.stderr).toBe(0);
    expect((r.sent[0]!.body as { PreviewRecipients: string[] }).PreviewRecipients).toHaveLength(15);
  });

  it('refuses invalid addresses with 371, naming each of them', async () => {
    await s.expectRefused(['campaigns', 'preview', '--campaign', C.autumnDraft, ...to('ada@example.com', 'bo@', 'not an address')], 371, /invalid preview recipient addresses: "bo@", "not an address"/);
  });

  it('surfaces 376 for a draft without content', async () => {
    const r = await s.email(['campaigns', 'preview', '--campaign', C.contentlessDraft, ...to('ada@example.com')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 376: /);
  });

  it('is not repeated after a 500 or a dropped connection (it may have been sent), and says so', async () => {
    s.sandbox.failNext({ method: 'POST', path: /sendpreview/, status: 500 });
    const failed = await s.emailSent(['campaigns', 'preview', '--campaign', C.autumnDraft, ...to('ada@example.com')]);
    expect(failed.code).toBe(1);
    expect(failed.sent).toHaveLength(1);
    expect(failed.stderr).toMatch(/may have been sent .* not repeated automatically/);
    s.sandbox.failNext({ method: 'POST', path: /sendpreview/, drop: true });
    const dropped = await s.emailSent(['campaigns', 'preview', '--campaign', C.autumnDraft, ...to('ada@example.com')]);
    expect(dropped.code).toBe(1);
    expect(dropped.sent).toHaveLength(1);
  });

  it('waits out a 429 and sends again: the service refused it unsent', async () => {
    s.sandbox.failNext({ method: 'POST', path: /sendpreview/, status: 429, retryAfterSeconds: 0 });
    const r = await s.emailSent(['campaigns', 'preview', '--campaign', C.autumnDraft, ...to('ada@example.com')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent.map((x) => x.status)).toEqual([429, 200]);
  });

  it('names the recipients a service-side 371 lists in ResultData', async () => {
    const server = await startScriptedServer();
    try {
      server.reply({ status: 400, body: { Code: 371, Message: 'Invalid preview recipient addresses.', ResultData: [{ Recipient: 'ada@example.invalid' }] } });
      const r = await runCli(['campaigns', 'preview', '--campaign', C.autumnDraft, '--to', 'ada@example.invalid'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error 371: /);
      expect(r.stderr).toMatch(/hint: The service refused: ada@example\.invalid/);
    } finally {
      await server.close();
    }
  });
});

describe('campaigns unschedule', () => {
  it('off a terminal refuses without --yes and sends nothing', async () => {
    await s.expectRefused(['campaigns', 'unschedule', '--campaign', C.customerSurvey], undefined, /refusing to unschedule a campaign without --yes when not on a terminal/);
  });

  it('with --yes POSTs /unschedule with no body and the campaign is a draft again', async () => {
    const r = await s.emailSent(['campaigns', 'unschedule', '--campaign', C.summerLaunch, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({ method: 'POST', path: `/email/campaigns/${C.summerLaunch}/unschedule`, status: 200 });
    expect(r.sent[0]!.body).toBeUndefined();
    expect(s.sandbox.state().campaigns[C.summerLaunch]!.Status).toBe('Draft');
  });

  it('on a terminal asks first, naming the campaign, and a no sends nothing', async () => {
    const questions: string[] = [];
    const r = await s.emailSent(['campaigns', 'unschedule', '--campaign', C.customerSurvey], {
      stdinIsTTY: true,
      stderrIsTTY: true,
      prompt: { secret: async () => '', confirm: async (q) => (questions.push(q), false) },
    });
    expect(r.code).toBe(2);
    // One read names it (CLI.md "prompts"); nothing is sent.
    expect(r.sent.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /email/clients/scheduled']);
    expect(questions).toEqual([`Unschedule campaign “Customer Survey” (${C.customerSurvey}), cancelling its sending and returning it to drafts?`]);
    expect(s.sandbox.state().campaigns[C.customerSurvey]!.Status).toBe('Scheduled');
  });

  it('explains 341 for a campaign that is not scheduled', async () => {
    const r = await s.email(['campaigns', 'unschedule', '--campaign', C.autumnDraft, '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 341: /);
    expect(r.stderr).toMatch(/hint: Only a scheduled campaign can be unscheduled.*`email campaigns scheduled`/);
  });

  it('is not repeated after a 500', async () => {
    s.sandbox.failNext({ method: 'POST', path: /unschedule/, status: 503 });
    const r = await s.emailSent(['campaigns', 'unschedule', '--campaign', C.earlyAccessInvite, '--yes']);
    expect(r.code).toBe(1);
    expect(r.sent).toHaveLength(1);
  });
});

describe('campaigns summary, scheduled, sent', () => {
  it('summary GETs /summary and shows the counters as a table, the full object in JSON', async () => {
    const r = await s.emailSent(['campaigns', 'summary', '--campaign', C.welcome]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]).toMatchObject({ method: 'GET', path: `/email/campaigns/${C.welcome}/summary` });
    expect(r.stdout).toMatch(/\nOpened \(unique\)\t\d+\nOpened \(total\)\t\d+\nClicks\t\d+\nUnsubscribed\t2500\n/);
    const j = await s.email(['campaigns', 'summary', '--campaign', C.welcome, '--json']);
    expect(Object.keys(JSON.parse(j.stdout)).sort()).toEqual(
      ['Bounced', 'Clicks', 'Forwards', 'Likes', 'Mentions', 'Recipients', 'SpamComplaints', 'TotalOpened', 'UniqueOpened', 'Unsubscribed', 'WebVersionTextURL', 'WebVersionURL', 'WorldviewURL'],
    );
  });

  it('summary surfaces the generic 400 of a campaign not sent yet', async () => {
    const r = await s.email(['campaigns', 'summary', '--campaign', C.autumnDraft]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: .*\(HTTP 400\)/);
  });

  it('scheduled lists id, name, subject, date and time zone as the service gives them; JSON has the full objects', async () => {
    const json = await s.emailSent(['campaigns', 'scheduled', '--json']);
    expect(json.sent[0]).toMatchObject({ method: 'GET', path: '/email/clients/scheduled' });
    const campaigns = JSON.parse(json.stdout) as Record<string, string>[];
    expect(campaigns.length).toBeGreaterThan(0);
    expect(Object.keys(campaigns[0]!)).toEqual(expect.arrayContaining(['CampaignID', 'Name', 'Subject', 'DateScheduled', 'ScheduledTimeZone', 'PreviewURL', 'DateCreated', 'FromEmail', 'ReplyTo']));
    const table = await s.email(['campaigns', 'scheduled']);
    const first = campaigns[0]!;
    expect(table.stdout.split('\n')[0]).toBe([first.CampaignID, first.Name, first.Subject, first.DateScheduled, first.ScheduledTimeZone].join('\t'));
  });

  it('sent shows whole ids in a bordered table on a terminal', async () => {
    const r = await s.email(['campaigns', 'sent'], { stdoutIsTTY: true, env: { NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/│ ID\s+│ Name\s+│ Subject\s+│ Sent\s+│ Recipients │/);
    expect(r.stdout).toContain(C.welcome);
    const json = JSON.parse((await s.email(['campaigns', 'sent', '--json'])).stdout) as Record<string, unknown>[];
    const welcome = json.find((c) => c.CampaignID === C.welcome)!;
    expect(r.stdout).toContain(String(welcome.SentDate));
    expect(Object.keys(welcome)).toEqual(expect.arrayContaining(['WebVersionURL', 'WebVersionTextURL', 'SentDate', 'TotalRecipients', 'FromName']));
  });

  it('sent writes every field as CSV with a header', async () => {
    const r = await s.email(['campaigns', 'sent', '-o', 'csv']);
    const [header] = r.stdout.split('\r\n');
    expect(header!.split(',')).toEqual(expect.arrayContaining(['CampaignID', 'Name', 'SentDate', 'TotalRecipients']));
  });

  it('refuses a campaign id that is not a UUID', async () => {
    await s.expectRefused(['campaigns', 'summary', '--campaign', 'welcome'], undefined, /--campaign must be a UUID/);
  });
});
