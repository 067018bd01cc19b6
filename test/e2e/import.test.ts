// `email subscribers import` through the real binary, as a CI script runs it:
// killed with SIGKILL or stopped with Ctrl-C half-way, then resumed, without
// sending an acknowledged batch twice and without losing a row.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli, startCli, tempConfigDir } from '../helpers/cli.js';
import { expectCountsAddUp, importRequests, listAddresses, peopleCsv, tempDir, writeFile } from '../helpers/import-files.js';

const LIST = SEED_LIST_IDS.customers;
const ROWS = 3000;
const BATCH = 100;

let sandbox: RunningSandbox;
let dir: string;
let env: Record<string, string>;
beforeEach(async () => {
  // Slow enough answers that the import is surely half-way when it is stopped.
  sandbox = await startSandbox({ port: 0, latencyMs: 40 });
  dir = tempDir();
  env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey, EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_RETRY_BASE_MS: '5' };
  writeFile(dir, 'people.csv', peopleCsv(ROWS));
});
afterEach(async () => {
  await sandbox.stop();
});

const journalPath = () => join(dir, `people.csv.${LIST.slice(0, 8)}.import-journal`);
const args = (...more: string[]) => ['subscribers', 'import', 'people.csv', '--list', LIST, '--batch-size', String(BATCH), '--concurrency', '2', '--json', ...more];

/** Batch numbers the journal holds (its first line is the header). */
function journaledBatches(): number[] {
  if (!existsSync(journalPath())) return [];
  return readFileSync(journalPath(), 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line.endsWith('}'))
    .map((line) => (JSON.parse(line) as { batch: number }).batch);
}

/** The first address of batch n of people.csv (rows are person0, person1, …). */
const firstAddressOf = (batch: number) => `person${batch * BATCH}@example.com`;

const startImport = () => startCli(args(), { cwd: dir, env });

async function waitForJournaledBatches(count: number): Promise<void> {
  for (let i = 0; i < 500 && journaledBatches().length < count; i++) await new Promise((r) => setTimeout(r, 20));
  expect(journaledBatches().length).toBeGreaterThanOrEqual(count);
}

/** Resumes, and checks nothing journaled is sent again and every row lands exactly once. */
async function resumeAndCheck(acknowledged: number[]) {
  const before = sandbox.requestCount();
  const resumed = await spawnCli(args('--resume'), { cwd: dir, env });
  expect(resumed.code, resumed.stderr).toBe(0);
  const summary = JSON.parse(resumed.stdout);
  expectCountsAddUp(summary);
  expect(summary).toMatchObject({ rows: ROWS, failed: 0, rejected: 0, duplicates: 0, resumed: true, complete: true });
  expect(summary.new + summary.existing).toBe(ROWS);
  const resent = importRequests(sandbox, before).map((r) => r.body.Subscribers[0]!.EmailAddress);
  for (const batch of acknowledged) expect(resent).not.toContain(firstAddressOf(batch));
  expect(resent.length).toBe(ROWS / BATCH - summary.resumedBatches);
  const onList = listAddresses(sandbox, LIST);
  for (let i = 0; i < ROWS; i++) expect.soft(onList.has(`person${i}@example.com`)).toBe(true);
  expect(existsSync(journalPath())).toBe(false);
  return summary;
}

describe('interrupted imports', () => {
  it('SIGKILL half-way, then --resume: no acknowledged batch is sent twice, nothing is lost', async () => {
    const run = startImport();
    await waitForJournaledBatches(4);
    run.child.kill('SIGKILL');
    await run.exited;
    const acknowledged = journaledBatches();
    expect(acknowledged.length).toBeLessThan(ROWS / BATCH);
    const summary = await resumeAndCheck(acknowledged);
    expect(summary.resumedBatches).toBe(acknowledged.length);
  });

  it('Ctrl-C: batches in flight finish, the journal is saved, the summary so far is printed, exit 130; --resume finishes', async () => {
    const run = startImport();
    await waitForJournaledBatches(3);
    run.child.kill('SIGINT');
    const code = await run.exited;
    const { stdout, stderr } = run.output();
    expect(code, stderr).toBe(130);
    const partial = JSON.parse(stdout);
    expectCountsAddUp(partial);
    expect(partial.complete).toBe(false);
    expect(partial.journal).toBe(journalPath());
    expect(stderr).toContain('run the same command with --resume to continue');
    const acknowledged = journaledBatches();
    // Everything acknowledged before the stop is journaled, and is what the summary counts.
    expect(partial.new + partial.existing).toBe(acknowledged.length * BATCH);
    await resumeAndCheck(acknowledged);
  });

  it('Ctrl-C: the summary for people says the rows are those read so far, not the whole file', async () => {
    const run = startCli(args().filter((a) => a !== '--json'), { cwd: dir, env });
    await waitForJournaledBatches(3);
    run.child.kill('SIGINT');
    const code = await run.exited;
    const { stdout, stderr } = run.output();
    expect(code, stderr).toBe(130);
    // Rows read = rows with an outcome + rows not finished; the file's rows are not known.
    const [, read, done] = /^Rows read so far\t(\d+)(?: \((\d+) with an outcome\))?$/m.exec(stdout) ?? [];
    const [, unfinished] = /^Not finished\t(\d+) rows \(read, not yet imported: --resume sends them and the rest of the file\)$/m.exec(stdout) ?? [];
    expect(read, stdout).toBeDefined();
    expect(unfinished, stdout).toBeDefined();
    expect(Number(read)).toBe(Number(done ?? read) + Number(unfinished));
    expect(Number(read)).toBeLessThan(ROWS);
    expect(stderr).toMatch(new RegExp(`interrupted after reading ${Number(read).toLocaleString('en-US')} rows: the journal is saved`));
    expect(stdout).not.toMatch(/^Rows\t/m);
  });

  it('two SIGINTs a few ms apart (timeout, a CI runner: the process, then its group) are one interruption: the batches in flight finish and are journaled', async () => {
    const run = startImport();
    await waitForJournaledBatches(3);
    run.child.kill('SIGINT');
    // Apart enough that the process sees two signals (two pending ones would merge into one), well under 100 ms.
    await new Promise((r) => setTimeout(r, 25));
    run.child.kill('SIGINT');
    const code = await run.exited;
    const { stdout, stderr } = run.output();
    expect(code, stderr).toBe(130);
    expect(stderr).not.toContain('abandoning');
    const partial = JSON.parse(stdout);
    expectCountsAddUp(partial);
    // Every request that reached the service was answered and journaled: nothing was abandoned in flight.
    expect(importRequests(sandbox).length).toBe(journaledBatches().length);
    expect(partial.new + partial.existing).toBe(journaledBatches().length * BATCH);
    await resumeAndCheck(journaledBatches());
  });

  it('an interrupted import under --json ends stderr with the JSON error of kind "interrupted"', async () => {
    const run = startImport();
    await waitForJournaledBatches(2);
    run.child.kill('SIGINT');
    const code = await run.exited;
    const { stderr } = run.output();
    expect(code, stderr).toBe(130);
    const last = stderr.trimEnd().split('\n').at(-1)!;
    const error = JSON.parse(last).error;
    expect(error.kind).toBe('interrupted');
    expect(error.message).toContain('--resume');
  });

  it('prints only the summary when all goes well: no progress off a terminal, nothing on stderr', async () => {
    // Company mapped on purpose: a column nothing maps would be named on stderr (CLI.md "Import input").
    const r = await spawnCli(args('--map', 'Company=Company'), { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const summary = JSON.parse(r.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: ROWS, new: ROWS, batches: ROWS / BATCH });
  });
});
