// The one step of the vendor-export tests (test/e2e/import-vendors*.test.ts):
// a file from test/fixtures/vendors/ (or one a test wrote) imported through
// bin/email into the sandbox with --json and --failures, and what came of it:
// the summary (its counts checked to add up), the subscribers this run sent,
// and the rows of its failures file.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { humanStderr, spawnCli, type CliResult } from './cli.js';
import { expectCountsAddUp, importRequests } from './import-files.js';
import type { TestSandbox } from './sandbox.js';

export const VENDORS = fileURLToPath(new URL('../fixtures/vendors/', import.meta.url));
/** The list every vendor file goes to; its seeded subscribers share no address with the fixtures. */
export const LIST = SEED_LIST_IDS.customers;

export interface SentSubscriber {
  EmailAddress: string;
  Name: string;
  CustomFields: { Key: string; Value: string }[];
  ConsentToTrack: string;
}

/** A failures-file row: the input's cells by header, and the four columns the import appends. */
export interface FailureRow {
  cells: Record<string, string>;
  Line: string;
  Outcome: string;
  Code: string;
  Message: string;
}

export interface VendorRun extends CliResult {
  /** The --json summary, or undefined when the run printed none (a usage error). */
  summary: Record<string, any> | undefined;
  /** Every subscriber this run sent, in request order. */
  sent: SentSubscriber[];
  /** The run's failures file, as a name in the test's directory. */
  failuresFile: string;
  failures: FailureRow[];
  /** Stderr in the human form, whatever the output format. */
  messages: string;
  /** The one subscriber sent with this address (case ignored). */
  one(address: string): SentSubscriber;
  /** The values sent for one custom field key of one address. */
  values(address: string, key: string): string[];
}

const lower = (address: string) => address.trim().toLowerCase();

function readFailures(path: string): FailureRow[] {
  if (!existsSync(path)) return [];
  const records: string[][] = parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''), { relax_column_count: true });
  const [header = [], ...rows] = records;
  const own = header.length - 4;
  return rows.map((row) => {
    const cells = Object.fromEntries(header.slice(0, own).map((name, i) => [name, row[i] ?? '']));
    const [Line = '', Outcome = '', Code = '', Message = ''] = row.slice(own);
    return { cells, Line, Outcome, Code, Message };
  });
}

/**
 * Imports `file` (a path under test/fixtures/vendors/, copied into the test's
 * directory first, or a file already there) with `flags` after
 * `--list LIST --json --failures failed-N.csv`.
 */
export function vendorImporter(t: TestSandbox): (file: string, flags?: string[]) => Promise<VendorRun> {
  let runs = 0;
  return async (file, flags = []) => {
    const name = basename(file);
    if (file.includes('/')) copyFileSync(join(VENDORS, file), join(t.dir, name));
    const failuresFile = `failed-${++runs}.csv`;
    const since = t.sandbox.requests.length;
    const argv = ['subscribers', 'import', name, '--list', LIST, '--json', '--failures', failuresFile, ...flags];
    const result = await spawnCli(argv, { cwd: t.dir, env: t.env });
    let summary: Record<string, any> | undefined;
    if (result.stdout.trim().startsWith('{')) {
      summary = JSON.parse(result.stdout);
      expectCountsAddUp(summary as never);
    }
    const sent = importRequests(t.sandbox, since).flatMap(({ body }) => body.Subscribers as unknown as SentSubscriber[]);
    const one = (address: string) => {
      const found = sent.filter((s) => lower(s.EmailAddress) === lower(address));
      expect(found, `${address} sent once by email ${argv.join(' ')}\n${result.stderr}`).toHaveLength(1);
      return found[0]!;
    };
    return {
      ...result,
      summary,
      sent,
      failuresFile,
      failures: readFailures(join(t.dir, failuresFile)),
      messages: humanStderr(result.stderr),
      one,
      values: (address, key) => one(address).CustomFields.filter((f) => f.Key === key).map((f) => f.Value),
    };
  };
}

/** Every address in `addresses` was sent exactly once by the run, and nothing else was. */
export function expectSentOnce(run: VendorRun, addresses: string[]): void {
  const sent = run.sent.map((s) => lower(s.EmailAddress)).sort();
  expect(sent, run.stderr).toEqual(addresses.map(lower).sort());
}

/** A stderr line names `column` as the reason rows were skipped (not the custom-fields line that lists every column). */
export function expectSkipNamed(run: VendorRun, column: string): void {
  const lines = run.messages.split('\n').filter((line) => line.includes(column) && /skipped|not sent|--include-unsubscribed/i.test(line));
  expect(lines, run.messages).not.toEqual([]);
}

/** Line and Outcome of each failures-file row, for comparing two runs. */
export const outcomes = (run: VendorRun) => run.failures.map((r) => `${r.Line} ${r.Outcome}`);

/**
 * The failures file's round trip: imported again as it is (nothing fixed),
 * with the same flags, it sends nothing twice (only its `partial` rows, which
 * are sent again whole or as partial again) and lists the same rows again.
 */
export async function expectRoundTrip(importFile: (file: string, flags?: string[]) => Promise<VendorRun>, run: VendorRun, address: string, flags: string[]): Promise<VendorRun> {
  expect(run.failures.length, `${run.failuresFile} has rows to import again`).toBeGreaterThan(0);
  const again = await importFile(run.failuresFile, flags);
  expect(again.summary, again.stderr).toBeDefined();
  expect(again.summary!.rows).toBe(run.failures.length);
  expectSentOnce(again, run.failures.filter((r) => r.Outcome === 'partial').map((r) => r.cells[address]!));
  expect(outcomes(again)).toEqual(outcomes(run));
  return again;
}
