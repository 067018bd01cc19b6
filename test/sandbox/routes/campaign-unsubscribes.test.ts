// Campaign unsubscribes over HTTP (service-spec.md "Campaign unsubscribes",
// "Paged result envelope"): paging arithmetic, orders, filters and codes.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../../src/sandbox/index.js';
import { SEED_CAMPAIGN_IDS } from '../../../src/sandbox/seed-campaigns.js';
import { useSandbox, withSandbox } from '../../helpers/sandbox.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;
const C = SEED_CAMPAIGN_IDS;
const MISSING = '99999999-9999-4999-8999-999999999999';

const c = useSandbox();

function expectStatus(answer: { status: number; body: any }, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ status, message: expect.any(String) });
}

function expectCoded(answer: { status: number; body: any; text?: string }, code: number) {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body).toMatchObject({ Code: code, Message: expect.any(String) });
}

describe('campaign unsubscribes', () => {
  const unsubscribes = (id: string, query = '') => c.call('GET', `/email/campaigns/${id}/unsubscribes${query}`);

  it('defaults to page 1 of 1000, ordered by date ascending, with 2,500 records for the seeded sent campaign', async () => {
    const answer = await unsubscribes(C.welcome);
    expect(answer.status).toBe(200);
    const { Results, ...envelope } = answer.body;
    expect(envelope).toEqual({
      ResultsOrderedBy: 'date',
      OrderDirection: 'asc',
      PageNumber: 1,
      PageSize: 1000,
      RecordsOnThisPage: 1000,
      TotalNumberOfRecords: 2500,
      NumberOfPages: 3,
    });
    expect(Results[0]).toEqual({
      EmailAddress: expect.stringMatching(/^[^@\s]+@[^@\s]+$/),
      ListID: NEWSLETTER,
      Date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      IPAddress: expect.stringMatching(/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/),
    });
    const dates = Results.map((r: any) => r.Date);
    expect([...dates].sort()).toEqual(dates);
  });

  it('gives the short last page and an empty page beyond it with the same totals', async () => {
    const last = (await unsubscribes(C.welcome, '?page=3')).body;
    expect(last).toMatchObject({ PageNumber: 3, RecordsOnThisPage: 500, TotalNumberOfRecords: 2500, NumberOfPages: 3 });
    const beyond = (await unsubscribes(C.welcome, '?page=9')).body;
    expect(beyond).toMatchObject({ Results: [], PageNumber: 9, RecordsOnThisPage: 0, TotalNumberOfRecords: 2500, NumberOfPages: 3 });
  });

  it('walks every record exactly once across pages, in each order', async () => {
    const small = await withSandbox({ unsubscribesPerCampaign: 95 });
    try {
      for (const order of ['email', 'name', 'date']) {
        const seen: string[] = [];
        for (let page = 1; page <= 10; page++) {
          const body = (await small.call('GET', `/email/campaigns/${C.welcome}/unsubscribes?pagesize=10&orderfield=${order}&page=${page}`)).body;
          expect(body).toMatchObject({ NumberOfPages: 10, TotalNumberOfRecords: 95, RecordsOnThisPage: page === 10 ? 5 : 10 });
          seen.push(...body.Results.map((r: any) => r.EmailAddress));
        }
        expect(new Set(seen).size).toBe(95);
      }
    } finally {
      await small.sandbox.stop();
    }
  });

  it('orders by email either way', async () => {
    const asc = (await unsubscribes(C.welcome, '?orderfield=email&pagesize=1000')).body.Results.map((r: any) => r.EmailAddress);
    expect([...asc].sort()).toEqual(asc);
    const desc = (await unsubscribes(C.welcome, '?orderfield=email&orderdirection=desc&page=3')).body.Results.map((r: any) => r.EmailAddress);
    expect(desc.slice(-500).reverse()).toEqual(asc.slice(0, 500));
  });

  it('filters by date: records on or after the moment, with totals to match', async () => {
    const all = (await unsubscribes(C.welcome, '?pagesize=1000&page=1')).body.Results;
    const pivot = all[700].Date.slice(0, 16);
    const pages = await Promise.all([1, 2, 3].map((p) => unsubscribes(C.welcome, `?page=${p}`)));
    const expected = pages.flatMap((a) => a.body.Results).filter((r: any) => r.Date.slice(0, 16) >= pivot).length;
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(2500);
    const filtered = (await unsubscribes(C.welcome, `?date=${encodeURIComponent(pivot)}&orderfield=email`)).body;
    expect(filtered.TotalNumberOfRecords).toBe(expected);
    expect(filtered.Results.every((r: any) => r.Date.slice(0, 16) >= pivot)).toBe(true);
  });

  it('answers an empty envelope for a campaign that was not sent', async () => {
    expect((await unsubscribes(C.autumnDraft)).body).toMatchObject({ Results: [], TotalNumberOfRecords: 0, NumberOfPages: 0, RecordsOnThisPage: 0 });
  });

  it.each([
    [5, '?date=2024-02-01'],
    [5, '?date=2024-02-30%2010:00'],
    [800, '?page=0'],
    [800, '?page=abc'],
    [801, '?pagesize=9'],
    [801, '?pagesize=1001'],
    [802, '?orderfield=ip'],
    [803, '?orderdirection=up'],
  ])('gives %i for %s', async (code, query) => {
    expectCoded(await unsubscribes(C.welcome, query), code);
  });

  it('answers 404 for an unknown campaign', async () => {
    expectStatus(await unsubscribes(MISSING), 404);
  });
});
