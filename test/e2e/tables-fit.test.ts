// Tables at a terminal fit it (CLI.md "-o table"): bin/email on a pty 80 and
// 60 columns wide against the sandbox. Ids and dates stay whole, free text
// gives way with …, a list id repeated on every row waits for --wide; and the
// paging facts, --limit, arrays and CSV as scripts and spreadsheets read them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { SEED_CAMPAIGN_IDS } from '../../src/sandbox/seed-campaigns.js';
import { spawnCli } from '../helpers/cli.js';
import { onTerminal } from '../helpers/terminal.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.stop());

const env = () => ({ EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey });
const json = async (argv: string[]) => {
  const r = await spawnCli([...argv, '--json'], { env: env() });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>[];
};

const HISTORY = ['subscribers', 'history', '--list', SEED_LIST_IDS.newsletter, '--email', 'ada@example.com'];
/** Each command with the field of its records that holds the date its table shows. */
const TABLES: [string[], string][] = [
  [['campaigns', 'unsubscribes', SEED_CAMPAIGN_IDS.welcome, '--page-size', '10'], 'Date'],
  [HISTORY, 'Actions'],
  [['campaigns', 'sent'], 'SentDate'],
  [['campaigns', 'scheduled'], 'DateScheduled'],
  [['subscribers', 'lists', '--email', 'ada@example.com'], 'DateSubscriberAdded'],
  [['transactional', 'list'], 'CreatedAt'],
];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?$/;

/** The table's lines as the terminal showed them. */
const tableLines = (screen: string) => screen.replace(/\r/g, '').split('\n').filter((l) => /^[┌│├└]/.test(l));

describe('a table fits the terminal (CLI.md "-o table")', () => {
  for (const cols of [80, 60]) {
    it(`at ${cols} columns: no line wider, ids whole on one line, dates never cut`, async () => {
      for (const [argv, key] of TABLES) {
        const r = await onTerminal(sandbox, [...argv, '--no-pager'], { NO_COLOR: '1' }, '', { cols, rows: 50 });
        const what = `${argv.join(' ')} at ${cols}\n${r.screen}`;
        expect(r.code, what).toBe(0);
        const lines = tableLines(r.screen);
        expect(lines.length, what).toBeGreaterThan(2);
        for (const line of lines) expect(line.length, what).toBeLessThanOrEqual(cols);
        // A date cut to `202…` is the defect: every date shown keeps all its digits.
        expect(r.screen, what).not.toMatch(/\d…/);
        const records = await json(argv);
        const dates = records.flatMap((rec) => [rec[key]].flat().map((v) => (v && typeof v === 'object' ? (v as { Date: unknown }).Date : v))).filter((v): v is string => typeof v === 'string');
        expect(dates.length, what).toBeGreaterThan(0);
        for (const date of dates) expect(date).toMatch(DATE);
        const screen = lines.join('\n');
        for (const date of dates.slice(0, 5)) {
          // Whole: on one line, or its day and its time each whole on lines of their own.
          const [day, time] = date.split(/[ T]/);
          expect(screen.includes(date) || (screen.includes(day!) && screen.includes(time!)), `${date} in ${what}`).toBe(true);
        }
        // Every id shown is whole: no line holds a piece of one.
        for (const line of lines) expect(line.replace(UUID, ''), what).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      }
    }, 60_000);
  }

  it('a list id repeated on every row waits for --wide; --wide shows it, and still fits', async () => {
    const argv = ['campaigns', 'unsubscribes', SEED_CAMPAIGN_IDS.welcome, '--page-size', '10', '--no-pager'];
    const narrow = await onTerminal(sandbox, argv, { NO_COLOR: '1' }, '', { cols: 80, rows: 50 });
    expect(narrow.code, narrow.screen).toBe(0);
    expect(narrow.screen).not.toContain(SEED_LIST_IDS.newsletter);
    const wide = await onTerminal(sandbox, [...argv, '--wide'], { NO_COLOR: '1' }, '', { cols: 80, rows: 50 });
    expect(wide.code, wide.screen).toBe(0);
    expect(wide.screen).toContain(SEED_LIST_IDS.newsletter);
    for (const line of tableLines(wide.screen)) expect(line.length, wide.screen).toBeLessThanOrEqual(80);
    // JSON has every field, whatever the table shows.
    const records = await json(['campaigns', 'unsubscribes', SEED_CAMPAIGN_IDS.welcome, '--page-size', '10']);
    expect(records[0]).toHaveProperty('ListID', SEED_LIST_IDS.newsletter);
  }, 30_000);

  it('free text gives way with … on one line, a URL included', async () => {
    const r = await onTerminal(sandbox, [...HISTORY, '--no-pager'], { NO_COLOR: '1' }, '', { cols: 80, rows: 50 });
    expect(r.code, r.screen).toBe(0);
    const lines = tableLines(r.screen);
    // The click's URL is shortened, not wrapped into pieces over several lines.
    expect(lines.filter((l) => /│ (ple\.co|m\/welc|ome )/.test(l))).toEqual([]);
  });
});

describe('--page past the last page', () => {
  it('warns, naming how many pages there are', async () => {
    const r = await spawnCli(['campaigns', 'unsubscribes', SEED_CAMPAIGN_IDS.welcome, '--page', '99'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^warning: page 99 is past the last page: there are 3 pages/m);
    const none = await spawnCli(['campaigns', 'unsubscribes', SEED_CAMPAIGN_IDS.autumnDraft, '--page', '1'], { env: env() });
    expect(none.stderr).toMatch(/^warning: page 1 is past the last page: there are no pages \(no records\)/m);
  });
});
