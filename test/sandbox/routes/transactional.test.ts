// Transactional endpoints over HTTP (service-spec.md "Endpoints" →
// "Transactional (smart) emails", codes 920-926, 932, 993, 994).
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../../src/sandbox/index.js';
import { STATISTICS_SMART_EMAIL_PARAM } from '../../../src/sandbox/routes/transactional.js';
import { SEED_SMART_EMAIL_IDS } from '../../../src/sandbox/seed-campaigns.js';
import { useSandbox } from '../../helpers/sandbox.js';

const E = SEED_SMART_EMAIL_IDS;
const MISSING = '99999999-9999-4999-8999-999999999999';
const NOW = new Date('2025-06-15T12:00:00Z');

const c = useSandbox({ now: () => NOW });

function expectCoded(answer: { status: number; body: any; text: string }, code: number) {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body).toMatchObject({ Code: code, Message: expect.any(String) });
}

/** Sums of the seeded send records, computed independently of the route. */
function expectedTotals(filter: (r: any) => boolean) {
  const totals = { Sent: 0, Bounces: 0, Delivered: 0, Opened: 0, Clicked: 0 };
  for (const r of c.sandbox.state().sendRecords.filter(filter)) for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += r[k];
  return totals;
}

describe('list smart emails', () => {
  it('lists all smart emails by default, newest first, with the spec fields', async () => {
    const answer = await c.call('GET', '/email/transactional/smartEmail');
    expect(answer.status).toBe(200);
    expect(answer.body.map((e: any) => e.ID)).toEqual([E.welcomeDraft, E.orderConfirmation, E.passwordReset]);
    expect(answer.body[2]).toEqual({ ID: E.passwordReset, Name: 'Password reset', CreatedAt: '2024-01-05 12:00:00', Status: 'Active' });
  });

  it('filters by status active or draft, in any case', async () => {
    const active = await c.call('GET', '/email/transactional/smartEmail?status=active');
    expect(active.body.map((e: any) => e.Status)).toEqual(['Active', 'Active']);
    const draft = await c.call('GET', '/email/transactional/smartEmail?status=Draft');
    expect(draft.body.map((e: any) => e.ID)).toEqual([E.welcomeDraft]);
    expect((await c.call('GET', '/email/transactional/smartEmail?status=all')).body).toHaveLength(3);
  });

  it('gives 932 for any other status', async () => {
    expectCoded(await c.call('GET', '/email/transactional/smartEmail?status=sent'), 932);
  });
});

describe('smart email details', () => {
  it('gives the details of a smart email', async () => {
    const answer = await c.call('GET', `/email/transactional/smartEmail/${E.orderConfirmation}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      SmartEmailID: E.orderConfirmation,
      CreatedAt: '2024-01-06 12:00:00',
      Status: 'Active',
      Name: 'Order confirmation',
      Properties: {
        From: expect.any(String),
        ReplyTo: 'support@example.com',
        Subject: expect.any(String),
        Content: { Html: expect.stringContaining('<html>'), Text: expect.any(String), EmailVariables: ['firstname', 'order_id', 'total'], InlineCss: true },
        TextPreviewUrl: expect.stringMatching(/^https:\/\//),
        HtmlPreviewUrl: expect.stringMatching(/^https:\/\//),
      },
      AddRecipientsToList: SEED_LIST_IDS.customers,
    });
  });

  it('gives 926 for an unknown or malformed id', async () => {
    expectCoded(await c.call('GET', `/email/transactional/smartEmail/${MISSING}`), 926);
    expectCoded(await c.call('GET', '/email/transactional/smartEmail/not-a-guid'), 926);
  });
});

describe('email statistics', () => {
  const stats = (query = '') => c.call('GET', `/email/transactional/statistics${query}`);

  it('defaults to the 29 days before today up to today in the client time zone, and echoes them', async () => {
    const answer = await stats();
    expect(answer.status).toBe(200);
    expect(answer.body.Query).toEqual({ From: '2025-05-17', To: '2025-06-15', TimeZone: 'client' });
    const totals = expectedTotals((r) => r.Date >= '2025-05-17' && r.Date <= '2025-06-15');
    expect(totals.Sent).toBeGreaterThan(0);
    expect(answer.body).toEqual({ Query: answer.body.Query, ...totals });
  });

  it('filters by classic group and echoes it', async () => {
    const answer = await stats('?group=Receipts&from=2025-04-17&to=2025-06-15&timezone=utc');
    expect(answer.body.Query).toEqual({ Group: 'Receipts', From: '2025-04-17', To: '2025-06-15', TimeZone: 'utc' });
    const totals = expectedTotals((r) => r.Group === 'Receipts');
    expect(totals.Sent).toBeGreaterThan(0);
    expect(answer.body).toMatchObject(totals);
  });

  it(`filters by smart email with the ${STATISTICS_SMART_EMAIL_PARAM} parameter`, async () => {
    const answer = await stats(`?${STATISTICS_SMART_EMAIL_PARAM}=${E.passwordReset}&from=2025-06-15`);
    expect(answer.body.Query).toEqual({ SmartEmailID: E.passwordReset, From: '2025-06-15', To: '2025-06-15', TimeZone: 'client' });
    const totals = expectedTotals((r) => r.SmartEmailID === E.passwordReset && r.Date === '2025-06-15');
    expect(totals.Sent).toBeGreaterThan(0);
    expect(answer.body).toMatchObject(totals);
  });

  it('gives zeros for a period without sends', async () => {
    expect((await stats('?from=2020-01-01&to=2020-12-31')).body).toMatchObject({ Sent: 0, Bounces: 0, Delivered: 0, Opened: 0, Clicked: 0 });
  });

  it.each([
    [920, '?from=2025/06/01'],
    [920, '?from=2025-02-30'],
    [921, '?from=2025-06-10&to=2025-06-09'],
    [921, '?from=2025-06-16'],
    [922, '?to=yesterday'],
    [923, '?timezone=est'],
    [924, `?group=Receipts&${STATISTICS_SMART_EMAIL_PARAM}=${E.passwordReset}`],
    [925, `?${STATISTICS_SMART_EMAIL_PARAM}=abc`],
  ])('gives %i for %s', async (code, query) => {
    expectCoded(await stats(query), code);
  });
});

describe('account setup (993, 994)', () => {
  const paths = ['/email/transactional/smartEmail', `/email/transactional/smartEmail/${E.passwordReset}`, '/email/transactional/statistics'];

  it('gives 993 on every transactional call while custom sending authentication is missing', async () => {
    c.sandbox.state().campaignAccount!.customSendingAuthentication = false;
    for (const path of paths) expectCoded(await c.call('GET', path), 993);
  });

  it('gives 994 on every transactional call while the sending domain does not match', async () => {
    c.sandbox.state().campaignAccount!.sendingDomainMatches = false;
    for (const path of paths) expectCoded(await c.call('GET', path), 994);
  });
});
