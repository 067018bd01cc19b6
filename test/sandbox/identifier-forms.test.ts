// Every identifier the sandbox takes, in a path, a query or a body, names the
// same resource dashed or as 32 hex digits, in any letter case (CLI.md
// "identifiers": the real service reads its GUIDs in either form), and the
// sandbox answers with its own form: dashed, lower case.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/seed-ids.js';
import { SEED_CAMPAIGN_IDS, SEED_SEGMENT_IDS, SEED_SMART_EMAIL_IDS } from '../../src/sandbox/seed-campaigns.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { useSandbox } from '../helpers/sandbox.js';

const LIST = SEED_LIST_IDS.newsletter;
const SEGMENT = SEED_SEGMENT_IDS.newsletterPro;
const SMART_EMAIL = SEED_SMART_EMAIL_IDS.passwordReset;
const undashed = (id: string) => id.replace(/-/g, '');

/** The forms a client may send an id in, other than the sandbox's own. */
const FORMS: [string, (id: string) => string, string][] = [
  ['32 hex digits', undashed, SEED_CAMPAIGN_IDS.summerLaunch],
  ['upper case, dashed', (id) => id.toUpperCase(), SEED_CAMPAIGN_IDS.customerSurvey],
  ['upper case, 32 hex digits', (id) => undashed(id).toUpperCase(), SEED_CAMPAIGN_IDS.earlyAccessInvite],
];

const c = useSandbox();

const addBody = (email: string) => ({ EmailAddress: email, Name: 'Someone', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });

describe.each(FORMS)('ids as %s', (_form, as, scheduled) => {
  it('name the same list on every list-bound call, and nothing new is stored under another key', async () => {
    const list = as(LIST);
    const lists = Object.keys(c.sandbox.state().lists).sort();
    expect((await c.call('POST', `/email/subscribers/${list}`, addBody('new@example.com'))).status).toBe(201);
    expect(c.sandbox.state().lists[LIST]!.Subscribers['new@example.com']).toBeDefined();
    const update = await c.call('PUT', `/email/subscribers/${list}?email=new@example.com`, addBody('renamed@example.com'));
    expect(update.status, update.text).toBe(200);
    const imported = await c.call('POST', `/email/subscribers/${list}/import`, { Subscribers: [addBody('imported@example.com')], Resubscribe: false, QueueSubscriptionBasedAutoResponders: false });
    expect(imported.status, imported.text).toBe(200);
    expect(c.sandbox.state().lists[LIST]!.Subscribers['imported@example.com']).toBeDefined();
    const history = await c.call('GET', `/email/subscribers/${list}/history?email=renamed@example.com`);
    expect(history.status, history.text).toBe(200);
    const field = await c.call('POST', `/email/lists/${list}/customfields`, { FieldName: 'Shoe size', DataType: 'Number', FieldOptions: [], VisibleInPreferenceCenter: true });
    expect(field.status, field.text).toBe(201);
    const segment = await c.call('POST', `/email/segments/${list}`, { Title: 'Ids in another form' });
    expect(segment.status, segment.text).toBe(201);
    expect((await c.call('GET', `/email/segments/${segment.body}`)).body.ListID).toBe(LIST);
    expect(Object.keys(c.sandbox.state().lists).sort()).toEqual(lists);
    const forEmail = await c.call('GET', '/email/clients/listsforemail?email=imported@example.com');
    expect(forEmail.body.map((l: { ListID: string }) => l.ListID)).toEqual([LIST]);
  });

  it('name the same segment on every segment call, answered with its own id', async () => {
    const segment = as(SEGMENT);
    const read = await c.call('GET', `/email/segments/${segment}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ SegmentID: SEGMENT, ListID: LIST });
    expect((await c.call('POST', `/email/segments/${segment}/rules`, { Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @example.com' }] })).status).toBe(200);
    expect((await c.call('DELETE', `/email/segments/${segment}/rules`)).status).toBe(200);
    const update = await c.call('PUT', `/email/segments/${segment}`, { Title: 'Renamed' });
    expect(update.status, update.text).toBe(200);
    expect(c.sandbox.state().segments[SEGMENT]!.Title).toBe('Renamed');
  });

  it('name the same campaigns, and the lists and segments a new draft goes to', async () => {
    const summary = await c.call('GET', `/email/campaigns/${as(SEED_CAMPAIGN_IDS.welcome)}/summary`);
    expect(summary.status, summary.text).toBe(200);
    expect((await c.call('GET', `/email/campaigns/${as(SEED_CAMPAIGN_IDS.welcome)}/unsubscribes?page=1&pagesize=10`)).status).toBe(200);
    const preview = await c.call('POST', `/email/campaigns/${as(SEED_CAMPAIGN_IDS.autumnDraft)}/sendpreview`, { PreviewRecipients: ['someone@example.com'] });
    expect(preview.status, preview.text).toBe(200);
    const unscheduled = await c.call('POST', `/email/campaigns/${as(scheduled)}/unschedule`);
    expect(unscheduled.status, unscheduled.text).toBe(200);
    expect(c.sandbox.state().campaigns[scheduled]!.Status).toBe('Draft');
    const draft = (name: string, ids: Record<string, string[]>) =>
      c.call('POST', '/email/campaigns', { Name: name, Subject: 'S', FromName: 'F', FromEmail: 'f@example.com', ReplyTo: 'r@example.com', HtmlUrl: 'https://example.com/c.html', ...ids });
    const toList = await draft('To a list', { ListIDs: [as(LIST), LIST] });
    expect(toList.status, toList.text).toBe(200);
    const toSegment = await draft('To a segment', { SegmentIDs: [as(SEGMENT)] });
    expect(toSegment.status, toSegment.text).toBe(200);
    const stored = Object.values(c.sandbox.state().campaigns).filter((x) => x.Name.startsWith('To a '));
    expect(stored.map((x) => [x.ListIDs, x.SegmentIDs])).toEqual([[[LIST], []], [[], [SEGMENT]]]);
  });

  it('name the same smart email, in a path and in the statistics query', async () => {
    const details = await c.call('GET', `/email/transactional/smartEmail/${as(SMART_EMAIL)}`);
    expect(details.status, details.text).toBe(200);
    expect(details.body.SmartEmailID).toBe(SMART_EMAIL);
    const dashed = await c.call('GET', `/email/transactional/statistics?smartEmailID=${SMART_EMAIL}`);
    const other = await c.call('GET', `/email/transactional/statistics?smartEmailID=${as(SMART_EMAIL)}`);
    expect(other.status, other.text).toBe(200);
    expect(dashed.body.Sent).toBeGreaterThan(0);
    expect(other.body).toEqual(dashed.body);
  });

  it('name the same list in the programmatic interface (webhooks, subscriber states)', async () => {
    const sandbox = await startSandbox({ port: 0, webhooks: [{ listId: as(LIST), url: 'http://127.0.0.1:9/hook', format: 'json' }] });
    try {
      expect(sandbox.webhooks().map((w) => w.ListID)).toEqual([LIST]);
      const [someone] = Object.keys(sandbox.state().lists[LIST]!.Subscribers);
      sandbox.unsubscribe(as(LIST), someone!);
      expect(sandbox.state().lists[LIST]!.Subscribers[someone!]!.State).toBe('Unsubscribed');
    } finally {
      await sandbox.stop();
    }
  });
});
