import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { SEED_SEGMENT_IDS } from '../../src/sandbox/seed-campaigns.js';
import { useCommandSandbox } from '../helpers/sandbox.js';

const LIST = SEED_LIST_IDS.newsletter;

const s = useCommandSandbox();

async function createSegment(title: string, ...groups: string[]): Promise<string> {
  const r = await s.email(['segments', 'create', '--list', LIST, '--title', title, ...groups.flatMap((g) => ['--group', g])]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe('segments create', () => {
  it('parses --group into RuleGroups (OR within a flag, flags ANDed), POSTs to /email/segments/{listId} and prints the id', async () => {
    const r = await s.emailSent([
      'segments', 'create', '--list', LIST, '--title', 'a or b, 2024',
      '--group', 'EmailAddress CONTAINS @a.com OR EmailAddress CONTAINS @b.com',
      '--group', 'DateSubscribed AFTER 2024/01/01',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({ method: 'POST', path: `/email/segments/${LIST}`, status: 201 });
    expect(r.sent[0]!.body).toEqual({
      Title: 'a or b, 2024',
      RuleGroups: [
        { Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @a.com' }, { RuleType: 'EmailAddress', Clause: 'CONTAINS @b.com' }] },
        { Rules: [{ RuleType: 'DateSubscribed', Clause: 'AFTER 2024/01/01' }] },
      ],
    });
    const id = r.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.sandbox.state().segments[id]?.Title).toBe('a or b, 2024');
  });

  it('sends no RuleGroups when no --group is given', async () => {
    const r = await s.emailSent(['segments', 'create', '--list', LIST, '--title', 'No rules yet']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]!.body).toEqual({ Title: 'No rules yet' });
  });

  it('takes a custom field key with spaces in brackets as the RuleType', async () => {
    const r = await s.emailSent(['segments', 'create', '--list', LIST, '--title', 'Pro or Enterprise', '--group', '[Plan] EQUALS Pro OR [Plan] EQUALS Enterprise']);
    expect(r.code, r.stderr).toBe(0);
    expect((r.sent[0]!.body as { RuleGroups: unknown }).RuleGroups).toEqual([
      { Rules: [{ RuleType: '[Plan]', Clause: 'EQUALS Pro' }, { RuleType: '[Plan]', Clause: 'EQUALS Enterprise' }] },
    ]);
  });

  it('sends the body of --from-file @file as it is, with --title overriding its Title', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-segment-'));
    const body = { Title: 'From file', RuleGroups: [{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @example.com' }] }] };
    writeFileSync(join(dir, 'segment.json'), JSON.stringify(body));
    const r = await s.emailSent(['segments', 'create', '--list', LIST, '--from-file', '@segment.json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]!.body).toEqual(body);
    const renamed = await s.emailSent(['segments', 'create', '--list', LIST, '--from-file', '@segment.json', '--title', 'Renamed'], { cwd: dir });
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.sent[0]!.body).toEqual({ ...body, Title: 'Renamed' });
  });

  it('reads --from-file @- from stdin', async () => {
    const r = await s.emailSent(['segments', 'create', '--list', LIST, '--from-file', '@-'], { stdin: '{"Title": "From stdin"}' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]!.body).toEqual({ Title: 'From stdin' });
  });

  it('prints the new id as a JSON string with --json', async () => {
    const r = await s.email(['segments', 'create', '--list', LIST, '--title', 'JSON id', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('creates a segment on Name PROVIDED and NOT_PROVIDED, as the real service records them (issue 13.20)', async () => {
    const r = await s.emailSent(['segments', 'create', '--list', LIST, '--title', 'Named or planless', '--group', 'Name PROVIDED OR [Plan] NOT_PROVIDED']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]!.body).toEqual({ Title: 'Named or planless', RuleGroups: [{ Rules: [{ RuleType: 'Name', Clause: 'PROVIDED' }, { RuleType: '[Plan]', Clause: 'NOT_PROVIDED' }] }] });
  });

  it('sends a lowercase or between two rules as one clause, as typed, and says that rules are joined by OR', async () => {
    const r = await s.emailSent(['segments', 'create', '--list', LIST, '--title', 'AB', '--group', 'EmailAddress CONTAINS @a.com or EmailAddress CONTAINS @b.com']);
    expect(r.sent).toHaveLength(1);
    expect((r.sent[0]!.body as { RuleGroups: unknown }).RuleGroups).toEqual([{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @a.com or EmailAddress CONTAINS @b.com' }] }]);
    expect(r.stderr).toMatch(/warning: --group .* sent as one clause; rules are joined by " OR " in capitals/);
  });

  it('keeps " or " inside a value: one rule, no warning', async () => {
    const r = await s.emailSent(['segments', 'create', '--list', LIST, '--title', 'Colours', '--group', '[Company] EQUALS Black or White Ltd']);
    expect(r.sent).toHaveLength(1);
    expect((r.sent[0]!.body as { RuleGroups: unknown }).RuleGroups).toEqual([{ Rules: [{ RuleType: '[Company]', Clause: 'EQUALS Black or White Ltd' }] }]);
    expect(r.stderr).not.toMatch(/sent as one clause/);
  });

  it('refuses a missing or blank title with 273', async () => {
    await s.expectRefused(['segments', 'create', '--list', LIST], 273, /--title is required/);
    await s.expectRefused(['segments', 'create', '--list', LIST, '--title', ' '], 273);
    await s.expectRefused(['segments', 'create', '--list', LIST, '--from-file', '{"RuleGroups": []}'], 273, /Title in --from-file/);
  });

  it('refuses a rule without a clause, an empty rule and an empty group with 277', async () => {
    await s.expectRefused(['segments', 'create', '--list', LIST, '--title', 'T', '--group', 'EmailAddress'], 277, /has no clause/);
    await s.expectRefused(['segments', 'create', '--list', LIST, '--title', 'T', '--group', 'EmailAddress CONTAINS @a.com OR  OR Date AFTER 2024/01/01'], 277, /rule 2 is empty/);
    await s.expectRefused(['segments', 'create', '--list', LIST, '--title', 'T', '--group', ''], 277, /--group is empty/);
  });

  it('refuses RuleGroups of the wrong shape in --from-file with 277, and invalid JSON', async () => {
    await s.expectRefused(['segments', 'create', '--list', LIST, '--from-file', '{"Title": "T", "RuleGroups": [{"Rules": [{"RuleType": "EmailAddress"}]}]}'], 277, /Rules\[0\] needs a non-empty RuleType and Clause/);
    await s.expectRefused(['segments', 'create', '--list', LIST, '--from-file', '{"Title": "T",}'], undefined, /not valid JSON \(line 1, column 15/);
  });

  it('refuses an unknown key in --from-file, naming it and the nearest known one, and sends nothing', async () => {
    const r = await s.expectRefused(['segments', 'create', '--list', LIST, '--from-file', '{"Title": "T", "RuleGroup": [{"Rules": [{"RuleType": "EmailAddress", "Clause": "CONTAINS @a.com"}]}]}'], undefined, /--from-file: unknown key "RuleGroup" \(did you mean "RuleGroups"\?\)/);
    expect(r.stderr).toMatch(/Title, RuleGroups/);
    await s.expectRefused(['segments', 'create', '--list', LIST, '--from-file', '{"Title": "T", "RuleGroups": [{"Rules": [{"RuleType": "EmailAddress", "Clase": "CONTAINS @a.com"}]}]}'], undefined, /RuleGroups\[0\]\.Rules\[0\]: unknown key "Clase" \(did you mean "Clause"\?\)/);
  });

  it('takes what segments get --json printed: the read-only fields are left out, with one notice naming them', async () => {
    const got = await s.email(['segments', 'get', SEED_SEGMENT_IDS.newsletterPro, '--json']);
    expect(got.code, got.stderr).toBe(0);
    const doc = JSON.parse(got.stdout);
    expect(doc).toHaveProperty('ActiveSubscribers');
    const r = await s.emailSent(['segments', 'create', '--list', LIST, '--from-file', '@-', '--title', 'Copy'], { stdin: got.stdout });
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(r.sent[0]!.body as object).sort()).toEqual(['RuleGroups', 'Title']);
    expect(r.stderr).toMatch(/--from-file: left out ActiveSubscribers, ListID, SegmentID \(read-only: the service assigns them\)/);
  });

  it('update and add-rules take --from-file too', async () => {
    const id = await createSegment('Editable', 'EmailAddress CONTAINS @a.com');
    const up = await s.emailSent(['segments', 'update', id, '--from-file', '{"Title": "Edited", "RuleGroups": [{"Rules": [{"RuleType": "EmailAddress", "Clause": "CONTAINS @b.com"}]}]}']);
    expect(up.code, up.stderr).toBe(0);
    expect(up.sent[0]).toMatchObject({ method: 'PUT', path: `/email/segments/${id}` });
    expect(up.sent[0]!.body).toEqual({ Title: 'Edited', RuleGroups: [{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @b.com' }] }] });
    const add = await s.emailSent(['segments', 'add-rules', id, '--from-file', '{"Rules": [{"RuleType": "DateSubscribed", "Clause": "AFTER 2024/01/01"}]}']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.sent[0]!.body).toEqual({ Rules: [{ RuleType: 'DateSubscribed', Clause: 'AFTER 2024/01/01' }] });
    await s.expectRefused(['segments', 'add-rules', id, '--from-file', '{"Rule": []}'], undefined, /unknown key "Rule" \(did you mean "Rules"\?\)/);
  });

  it('refuses --group together with --from-file', async () => {
    await s.expectRefused(['segments', 'create', '--list', LIST, '--from-file', '{"Title": "T"}', '--group', 'EmailAddress CONTAINS x'], undefined, /not both/);
  });

  it('surfaces a duplicate title (275) and unparsable rules (277) from the service with exit 1', async () => {
    await createSegment('Duplicate me');
    const dup = await s.email(['segments', 'create', '--list', LIST, '--title', 'Duplicate me']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/^error 275: /);
    const bad = await s.email(['segments', 'create', '--list', LIST, '--title', 'Bad verb', '--group', 'EmailAddress RESEMBLES @a.com', '--json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr).error).toMatchObject({ code: 277, status: 400 });
    expect(JSON.parse(bad.stderr).error.resultData).toBeDefined();
  });
});

describe('segments get', () => {
  it('shows one line per rule group with OR between rules in a table', async () => {
    const id = await createSegment('Readable', 'EmailAddress CONTAINS @a.com OR EmailAddress CONTAINS @b.com', 'DateSubscribed AFTER 2024/01/01');
    const r = await s.emailSent(['segments', 'get', '--segment', id], { stdoutIsTTY: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]).toMatchObject({ method: 'GET', path: `/email/segments/${id}` });
    const lines = r.stdout.split('\n');
    expect(lines.find((l) => /│ Rules\s+│/.test(l))).toMatch(/EmailAddress CONTAINS @a\.com OR EmailAddress CONTAINS @b\.com/);
    expect(lines.find((l) => /│ AND\s+│/.test(l))).toMatch(/DateSubscribed AFTER 2024\/01\/01/);
    expect(r.stdout).toMatch(/│ Title\s+│ Readable/);
    expect(r.stdout).toMatch(/│ Active subscribers\s+│ \d+/);
  });

  it('prints tab-separated field and value lines in a pipe', async () => {
    const r = await s.email(['segments', 'get', '--segment', SEED_SEGMENT_IDS.newsletterRecentExample]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Rules\tEmailAddress CONTAINS @example.com\n');
    expect(r.stdout).toContain('AND\tDateSubscribed AFTER 2024/01/11\n');
  });

  it('prints the service data unchanged with --json', async () => {
    const r = await s.email(['segments', 'get', '--segment', SEED_SEGMENT_IDS.newsletterRecentExample, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data).toMatchObject({
      SegmentID: SEED_SEGMENT_IDS.newsletterRecentExample,
      ListID: LIST,
      RuleGroups: [{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @example.com' }] }, { Rules: [{ RuleType: 'DateSubscribed', Clause: 'AFTER 2024/01/11' }] }],
    });
    expect(typeof data.ActiveSubscribers).toBe('number');
  });

  it('shows "(none)" for a segment without rules', async () => {
    const id = await createSegment('Blank');
    const r = await s.email(['segments', 'get', '--segment', id]);
    expect(r.stdout).toContain('Rules\t(none)\n');
  });

  it('refuses a segment id that is not a UUID', async () => {
    await s.expectRefused(['segments', 'get', '--segment', 'pro-plan'], undefined, /--segment must be a UUID/);
  });
});

describe('segments update', () => {
  it('with --group replaces every rule, and says so', async () => {
    const id = await createSegment('To replace', 'EmailAddress CONTAINS @a.com', 'DateSubscribed AFTER 2024/01/01');
    const r = await s.emailSent(['segments', 'update', '--segment', id, '--title', 'Replaced', '--group', 'EmailAddress CONTAINS @c.com']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]).toMatchObject({ method: 'PUT', path: `/email/segments/${id}` });
    expect(r.sent[0]!.body).toEqual({ Title: 'Replaced', RuleGroups: [{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @c.com' }] }] });
    expect(r.stderr).toMatch(/all previous rules replaced by 1 rule group/);
    expect(s.sandbox.state().segments[id]!.RuleGroups).toHaveLength(1);
  });

  it('without --group sends no RuleGroups, keeps the rules, and says so', async () => {
    const id = await createSegment('To rename', 'EmailAddress CONTAINS @a.com');
    const r = await s.emailSent(['segments', 'update', '--segment', id, '--title', 'Renamed only']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]!.body).toEqual({ Title: 'Renamed only' });
    expect(r.stderr).toMatch(/rules kept \(give --group to replace them\)/);
    expect(s.sandbox.state().segments[id]!.RuleGroups).toEqual([{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @a.com' }] }]);
  });

  it('states in its help that --group replaces all rules', async () => {
    const r = await s.email(['segments', 'update', '--help']);
    expect(r.stdout).toMatch(/replaces all existing rules/);
    expect(r.stdout).toMatch(/Leaving --group out keeps the rules/);
  });

  it('refuses a missing or blank title with 273', async () => {
    await s.expectRefused(['segments', 'update', '--segment', SEED_SEGMENT_IDS.newsletterPro], 273, /--title is required/);
    await s.expectRefused(['segments', 'update', '--segment', SEED_SEGMENT_IDS.newsletterPro, '--title', ''], 273);
  });

  it('surfaces 284 for a system segment', async () => {
    const r = await s.email(['segments', 'update', '--segment', SEED_SEGMENT_IDS.newsletterEngaged, '--title', 'Mine now']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 284: /);
  });
});

describe('segments add-rules', () => {
  it('POSTs one {Rules} group to /rules and keeps the others', async () => {
    const id = await createSegment('Add to me', 'EmailAddress CONTAINS @example.com');
    const r = await s.emailSent(['segments', 'add-rules', '--segment', id, '--group', 'DateSubscribed AFTER 2024/01/11 OR DateSubscribed EQUALS 2024/01/10']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]).toMatchObject({ method: 'POST', path: `/email/segments/${id}/rules`, status: 200 });
    expect(r.sent[0]!.body).toEqual({
      Rules: [{ RuleType: 'DateSubscribed', Clause: 'AFTER 2024/01/11' }, { RuleType: 'DateSubscribed', Clause: 'EQUALS 2024/01/10' }],
    });
    expect(s.sandbox.state().segments[id]!.RuleGroups).toHaveLength(2);
  });

  it('refuses more than one --group and a rule without clause', async () => {
    await s.expectRefused(['segments', 'add-rules', '--segment', SEED_SEGMENT_IDS.newsletterPro, '--group', 'EmailAddress CONTAINS a', '--group', 'EmailAddress CONTAINS b'], undefined, /one rule group a call/);
    await s.expectRefused(['segments', 'add-rules', '--segment', SEED_SEGMENT_IDS.newsletterPro, '--group', 'DateSubscribed'], 277);
  });

  it('surfaces 277 from the service with its ResultData in JSON', async () => {
    const r = await s.email(['segments', 'add-rules', '--segment', SEED_SEGMENT_IDS.newsletterPro, '--group', '[NoSuchField] EQUALS x', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error.code).toBe(277);
  });
});

describe('segments clear-rules', () => {
  it('off a terminal refuses without --yes and sends nothing', async () => {
    await s.expectRefused(['segments', 'clear-rules', '--segment', SEED_SEGMENT_IDS.newsletterPro], undefined, /refusing to clear the rules of a segment without --yes when not on a terminal/);
  });

  it('with --yes sends DELETE /email/segments/{id}/rules', async () => {
    const id = await createSegment('Clear me', 'EmailAddress CONTAINS @a.com');
    const r = await s.emailSent(['segments', 'clear-rules', '--segment', id, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({ method: 'DELETE', path: `/email/segments/${id}/rules`, status: 200 });
    expect(s.sandbox.state().segments[id]!.RuleGroups).toEqual([]);
  });

  it('on a terminal asks, and sends only when the answer is yes', async () => {
    const id = await createSegment('Ask me', 'EmailAddress CONTAINS @a.com');
    const questions: string[] = [];
    const tty = { stdinIsTTY: true, stderrIsTTY: true };
    const no = await s.emailSent(['segments', 'clear-rules', '--segment', id], {
      ...tty,
      prompt: { secret: async () => '', confirm: async (q) => (questions.push(q), false) },
    });
    expect(no.code).toBe(2);
    // One read names the segment (CLI.md "prompts"); nothing is sent.
    expect(no.sent.map((r) => r.method)).toEqual(['GET']);
    expect(no.stderr).toMatch(/cancelled/);
    expect(questions[0]).toContain(`segment “Ask me” (${id})`);
    const yes = await s.emailSent(['segments', 'clear-rules', '--segment', id], { ...tty, prompt: { secret: async () => '', confirm: async () => true } });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.sent.map((r) => r.method)).toEqual(['GET', 'DELETE']);
  });

  it('surfaces 284 for a system segment', async () => {
    const r = await s.email(['segments', 'clear-rules', '--segment', SEED_SEGMENT_IDS.customersEngaged, '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 284: /);
  });
});
