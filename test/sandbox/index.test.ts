// startSandbox (src/sandbox/index.ts): what a running sandbox offers the
// tests, benches and `email sandbox` that start it, over HTTP on loopback.
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, SEED_LIST_IDS, startSandbox } from '../../src/sandbox/index.js';
import { useRunningSandbox } from '../helpers/sandbox.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;
const s = useRunningSandbox({ now: () => new Date('2025-03-04T05:06:07Z') });
const get = (path: string, key: string = s.apiKey) => fetch(`${s.url}${path}`, { headers: { Authorization: `Bearer ${key}` } });

describe('startSandbox', () => {
  it('listens on 127.0.0.1 with the default key, and refuses another key with 401', async () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.apiKey).toBe(DEFAULT_API_KEY);
    expect((await get('/email/clients/scheduled')).status).toBe(200);
    expect((await get('/email/clients/scheduled', 'wrong-key')).status).toBe(401);
  });

  it('summarises its seed: lists, campaigns, segments and smart emails', () => {
    expect(s.seed.lists.map((l) => l.ListID)).toEqual([NEWSLETTER, SEED_LIST_IDS.customers, SEED_LIST_IDS.earlyAccess]);
    expect(s.seed.campaigns.length).toBeGreaterThan(0);
    expect(s.seed.segments.every((seg) => seg.ListID && seg.Title)).toBe(true);
    expect(s.seed.smartEmails.length).toBeGreaterThan(0);
  });

  it('records requests, counts them, and forgets them on clearRequests()', async () => {
    await get('/email/clients/campaigns');
    await get('/email/clients/scheduled');
    expect(s.requestCount()).toBe(2);
    expect(s.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /email/clients/campaigns', 'GET /email/clients/scheduled']);
    s.clearRequests();
    expect(s.requests).toEqual([]);
  });

  it('queues a fault for the next request only', async () => {
    s.failNext({ status: 500 });
    expect((await get('/email/clients/scheduled')).status).toBe(500);
    expect((await get('/email/clients/scheduled')).status).toBe(200);
  });

  it('suspends the account: 403 until lifted', async () => {
    s.suspendAccount(true);
    expect((await get('/email/clients/scheduled')).status).toBe(403);
    s.suspendAccount(false);
    expect((await get('/email/clients/scheduled')).status).toBe(200);
  });

  it('moves subscribers as the service would, on its clock', () => {
    s.unsubscribe(NEWSLETTER, 'ada@example.com');
    expect(s.state().lists[NEWSLETTER]!.Subscribers['ada@example.com']).toMatchObject({ State: 'Unsubscribed', DateStateChanged: '2025-03-04T05:06:07.000Z' });
    s.confirmSubscriber(NEWSLETTER, 'pending@example.com');
    expect(s.state().lists[NEWSLETTER]!.Subscribers['pending@example.com']!.State).toBe('Active');
  });

  it('takes another key, and stop() may be called twice', async () => {
    const other = await startSandbox({ port: 0, apiKey: 'k-123' });
    try {
      expect(other.url).not.toBe(s.url);
      expect((await fetch(`${other.url}/email/clients/scheduled`, { headers: { Authorization: 'Bearer k-123' } })).status).toBe(200);
    } finally {
      await Promise.all([other.stop(), other.stop()]);
    }
  });
});
