// One record, every format (CLI.md `--limit`, `--fields`, `-o csv`): --limit
// counts what --json prints, arrays read in a table and flatten in CSV, and
// --bom gives spreadsheets the byte-order mark they need for UTF-8.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli } from '../helpers/cli.js';
import { onTerminal } from '../helpers/terminal.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.stop());

const env = () => ({ EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey });
const run = (argv: string[]) => spawnCli(argv, { env: env() });
const HISTORY = ['subscribers', 'history', '--list', SEED_LIST_IDS.newsletter, '--email', 'ada@example.com'];

describe('--limit counts one unit in every format', () => {
  it('subscribers history --limit 1: one campaign entry, with all its actions, in JSON, CSV and the table', async () => {
    const all = JSON.parse((await run([...HISTORY, '--json'])).stdout) as { Actions: unknown[] }[];
    expect(all[0]!.Actions.length).toBeGreaterThan(1);
    const json = JSON.parse((await run([...HISTORY, '--json', '--limit', '1'])).stdout) as unknown[];
    expect(json).toHaveLength(1);
    const table = await run([...HISTORY, '--limit', '1']);
    expect(table.code, table.stderr).toBe(0);
    // In a pipe one line per action: all of the first entry's.
    expect(table.stdout.trim().split('\n')).toHaveLength(all[0]!.Actions.length);
    const help = await run(['subscribers', 'history', '--help']);
    expect(help.stdout).toMatch(/--limit <n>\s+at most n campaign entries in every format/);
  });
});

describe('arrays in tables and CSV', () => {
  it('--fields Actions.Event: a table cell joins the values with ", "', async () => {
    const r = await run([...HISTORY, '--fields', 'Name,Actions.Event']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Welcome to the Newsletter\tOpen, Click$/m);
  });

  it('--fields Actions at a terminal: the array of records as rows', async () => {
    const r = await onTerminal(sandbox, [...HISTORY, '--fields', 'Name,Actions', '--no-pager'], { NO_COLOR: '1' }, '', { cols: 100, rows: 50 });
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).not.toContain('{"Event"');
    expect(r.screen).toMatch(/│ Open\s+│/);
    expect(r.screen).toMatch(/│ Click\s+│/);
  });

  it('CSV: an array of records becomes rows, an object columns, never a JSON cell', async () => {
    const history = await run([...HISTORY, '-o', 'csv']);
    expect(history.code, history.stderr).toBe(0);
    const lines = history.stdout.trim().split('\r\n');
    expect(lines[0]).toBe('ID,Type,Name,Actions.Event,Actions.Date,Actions.IPAddress,Actions.Detail');
    expect(lines.slice(1).map((l) => l.split(',')[3])).toEqual(['Open', 'Click']);
    expect(history.stdout).not.toContain('[{');
    const stats = await run(['transactional', 'stats', '-o', 'csv']);
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout.split('\r\n')[0]).toMatch(/^Query\.From,Query\.To,Query\.TimeZone,Sent,/);
    expect(stats.stdout).not.toContain('{"');
  });
});

describe('--bom', () => {
  it('starts CSV with a UTF-8 byte-order mark; without it there is none; without -o csv it is refused', async () => {
    const plain = await run(['campaigns', 'sent', '-o', 'csv']);
    expect(plain.stdout.startsWith('\uFEFF')).toBe(false);
    const bom = await run(['campaigns', 'sent', '-o', 'csv', '--bom']);
    expect(bom.code, bom.stderr).toBe(0);
    expect(bom.stdout.startsWith('\uFEFFCampaignID,')).toBe(true);
    expect(bom.stdout.indexOf('\uFEFF', 1)).toBe(-1);
    const refused = await run(['campaigns', 'sent', '--bom']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--bom .*-o csv/);
  });
});
