// The transactional calls (src/api/transactional.ts) against the sandbox.
import { describe, expect, it } from 'vitest';
import { getEmailStatistics, getSmartEmail, listSmartEmails, STATS_SMART_EMAIL_PARAM } from '../../src/api/transactional.js';
import { SEED_SMART_EMAIL_IDS } from '../../src/sandbox/seed-campaigns.js';
import { useApiSandbox } from '../helpers/api-client.js';

const api = useApiSandbox();
const E = SEED_SMART_EMAIL_IDS;

describe('transactional calls', () => {
  it('lists smart emails, with the status only when given', async () => {
    const all = await api.sent((c) => listSmartEmails(c));
    expect(all.requests.map((r) => [r.path, r.query])).toEqual([['/email/transactional/smartEmail', {}]]);
    const drafts = await api.sent((c) => listSmartEmails(c, 'draft'));
    expect(drafts.requests.map((r) => r.query)).toEqual([{ status: 'draft' }]);
    expect((drafts.answer as { ID: string }[]).map((e) => e.ID)).toEqual([E.welcomeDraft]);
  });

  it('reads one smart email by its id', async () => {
    const { answer, requests } = await api.sent((c) => getSmartEmail(c, E.passwordReset));
    expect(requests.map((r) => r.path)).toEqual([`/email/transactional/smartEmail/${E.passwordReset}`]);
    expect(answer).toMatchObject({ SmartEmailID: E.passwordReset });
  });

  it('asks for statistics with the query names of the spec, leaving out what is not given', async () => {
    const { requests } = await api.sent((c) => getEmailStatistics(c, { smartEmailId: E.passwordReset, from: '2025-01-01', to: undefined, group: undefined, timezone: 'utc' } as never));
    expect(requests.map((r) => [r.path, r.query, r.status])).toEqual([['/email/transactional/statistics', { [STATS_SMART_EMAIL_PARAM]: E.passwordReset, from: '2025-01-01', timezone: 'utc' }, 200]]);
  });
});
