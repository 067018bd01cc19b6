// Issue 13.1: in human mode, a coded error's ResultData is shown under it
// (277's rule problems, 371's recipients, 210's summary), not only with --json.
import { describe, expect, it } from 'vitest';
import { useCommandSandbox } from '../helpers/sandbox.js';

const LIST = '11111111-1111-4111-8111-111111111111';
const s = useCommandSandbox();

describe('a coded error with ResultData, in human mode', () => {
  it('277: every rule problem is named under the error, with its group and rule', async () => {
    const r = await s.email(['segments', 'create', '--list', LIST, '--title', 'Lower', '--group', 'EmailAddress contains @a.com']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 277: The segment rules could not be parsed; see ResultData\.\n/);
    expect(r.stderr).toMatch(/^ {2}group 1, rule 1 \(EmailAddress contains @a\.com\): Unknown verb "contains" \(verbs are written in capitals: CONTAINS\)/m);
  });

  it('371: the refused recipients are named', async () => {
    const draft = s.sandbox.seed.campaigns.find((c) => /draft/i.test(c.Status))!;
    const r = await s.email(['campaigns', 'preview', draft.CampaignID, '--to', 'ada@example.com']);
    // The sandbox accepts valid addresses; ask the service about one it refuses through `email api`.
    expect(r.code).toBe(0);
    const refused = await s.email(['api', '-X', 'POST', `/email/campaigns/${draft.CampaignID}/sendpreview`, '-d', '{"PreviewRecipients":["nope","also@bad"],"Personalize":"Random"}']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error 371: /);
    expect(refused.stderr).toMatch(/^ {2}Recipient: nope$/m);
    expect(refused.stderr).toMatch(/^ {2}Recipient: also@bad$/m);
  });

  it('with --json the details stay in the JSON object only', async () => {
    const r = await s.email(['segments', 'create', '--list', LIST, '--title', 'Lower', '--group', 'EmailAddress contains @a.com', '--json']);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stderr).error.resultData[0].Problem).toMatch(/Unknown verb/);
  });
});
