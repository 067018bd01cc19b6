// CLI.md "--json": an action command prints one JSON value on stdout, never
// nothing: the service's answer, or, when the service answers with no body
// (service-spec.md: 200 with nothing), what was done, in the service's field
// names. For people (a table) stdout stays empty and one line on stderr says what was done.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { useCommandSandbox } from '../helpers/sandbox.js';

const s = useCommandSandbox({}, 'each');
const CAMPAIGN = 'c0000000-0000-4000-8000-000000000001';
const LIST = SEED_LIST_IDS.newsletter;

async function scheduledCampaign(): Promise<string> {
  const r = await s.email(['campaigns', 'scheduled', '--jq', '.[0].CampaignID']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

/** A segment of our own: the seeded ones are system segments the service refuses to modify (284). */
let made = 0;
async function segment(): Promise<string> {
  const r = await s.email(['segments', 'create', '--list', LIST, '--title', `Ours ${++made}`, '--group', 'EmailAddress CONTAINS @example.com']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

const actions: [string, () => Promise<string[]>, Record<string, unknown>][] = [
  ['campaigns preview', async () => ['campaigns', 'preview', CAMPAIGN, '--to', 'ada@example.com'], { CampaignID: CAMPAIGN, PreviewRecipients: ['ada@example.com'] }],
  ['campaigns unschedule', async () => ['campaigns', 'unschedule', await scheduledCampaign(), '--yes'], {}],
  ['segments update', async () => ['segments', 'update', await segment(), '--title', `Renamed ${made}`], { Title: expect.stringMatching(/^Renamed/) }],
  ['segments add-rules', async () => ['segments', 'add-rules', await segment(), '--group', 'Name CONTAINS Ada'], { RuleGroup: { Rules: [{ RuleType: 'Name', Clause: 'CONTAINS Ada' }] } }],
  ['segments clear-rules', async () => ['segments', 'clear-rules', await segment(), '--yes'], { RuleGroups: [] }],
  ['subscribers update', async () => ['subscribers', 'update', '--list', LIST, '--email', 'ada@example.com', '--name', 'Ada King', '--consent', 'yes'], { ListID: LIST, EmailAddress: 'ada@example.com' }],
];

describe('action commands print one JSON value under --json', () => {
  for (const [name, argv, expected] of actions) {
    it(`${name} --json prints one JSON value on stdout`, async () => {
      const r = await s.email([...(await argv()), '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim(), 'stdout').not.toBe('');
      const value = JSON.parse(r.stdout);
      expect(value).toMatchObject(expected);
    });

    it(`${name} -o ndjson prints it on one line; a table prints nothing on stdout and says what was done on stderr`, async () => {
      const ndjson = await s.email([...(await argv()), '-o', 'ndjson']);
      expect(ndjson.code, ndjson.stderr).toBe(0);
      expect(ndjson.stdout.trimEnd().split('\n')).toHaveLength(1);
      JSON.parse(ndjson.stdout);
      const table = await s.email(await argv());
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toBe('');
      expect(table.stderr).not.toBe('');
    });
  }
});
