// The import journal through the real binary (CLI.md "--journal / --resume"):
// it belongs to one import (the file, the options, the service and its key),
// one import holds it at a time, it is never written through a planted link,
// and what it says is checked before a row is counted as imported.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli, startCli } from '../helpers/cli.js';
import { expectCountsAddUp, importRequests, peopleCsv, writeFile } from '../helpers/import-files.js';
import { sandboxPerTest } from '../helpers/sandbox.js';
import { waitUntil } from '../helpers/webhooks.js';

const LIST = SEED_LIST_IDS.customers;
const ROWS = 5000;
const BATCH = 1000;

const t = sandboxPerTest();
/** Sandboxes a test starts beside its own, stopped after it. */
let others: RunningSandbox[];
beforeEach(() => {
  others = [];
  writeFile(t.dir, 'people.csv', peopleCsv(ROWS));
});
afterEach(async () => {
  await Promise.all(others.map((s) => s.stop()));
});

const journalPath = () => join(t.dir, `people.csv.${LIST.slice(0, 8)}.import-journal`);
const args = (...more: string[]) => ['subscribers', 'import', 'people.csv', '--list', LIST, '--batch-size', String(BATCH), '--concurrency', '1', '--json', ...more];
const email = (more: string[] = [], extraEnv: Record<string, string | undefined> = {}) => spawnCli(args(...more), { cwd: t.dir, env: { ...t.env, ...extraEnv } });

/** An import whose first batch fails after its retries: batches 1-4 acknowledged, the journal kept for --resume (exit 3). */
async function leaveJournal(target = t.sandbox, extraEnv: Record<string, string | undefined> = {}): Promise<void> {
  target.failNext({ path: /\/import$/, status: 500, times: 4 });
  const r = await email([], extraEnv);
  expect(r.code, r.stderr).toBe(3);
  expect(JSON.parse(r.stdout)).toMatchObject({ new: 4000, failed: 1000, unacknowledgedBatches: 1 });
  expect(existsSync(journalPath())).toBe(true);
}

/** The journal's lines, parsed (the first is the header). */
function journalLines(): Record<string, unknown>[] {
  return readFileSync(journalPath(), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function writeJournal(lines: unknown[]): void {
  writeFileSync(journalPath(), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
}

/** A resume that must be refused before anything is sent, the journal left as it was. */
async function expectResumeRefused(message: RegExp, extraEnv: Record<string, string | undefined> = {}, target = t.sandbox, more: string[] = []) {
  const journal = readFileSync(journalPath());
  const before = target.requestCount();
  const r = await email(['--resume', ...more], extraEnv);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/unexpected internal error/);
  expect(target.requestCount(), 'requests sent').toBe(before);
  expect(readFileSync(journalPath()).equals(journal), 'the journal is kept as it was').toBe(true);
  return r;
}

/** No journal, no lock, no temporary file: only what the test put there. */
const leftOver = () => readdirSync(t.dir).filter((name) => name !== 'people.csv' && !name.startsWith('victim'));

describe('the journal belongs to one service', () => {
  it('--resume against another base URL is refused, naming both, nothing sent, the journal kept', async () => {
    await leaveJournal();
    const fresh = await startSandbox({ port: 0, apiKey: t.sandbox.apiKey });
    others.push(fresh);
    await expectResumeRefused(new RegExp(`the journal \\S+ was written for ${t.sandbox.url}; this run talks to ${fresh.url}`), { EMAIL_BASE_URL: fresh.url }, fresh);
  });

  it('--resume with another API key is refused, naming the key as what differs (not the key itself)', async () => {
    await leaveJournal();
    const r = await expectResumeRefused(/the journal \S+ was written with another API key/, { EMAIL_API_KEY: 'another-key-5678' });
    expect(r.stderr).not.toContain('another-key-5678');
    expect(readFileSync(journalPath(), 'utf8')).not.toContain(t.sandbox.apiKey);
  });

  it('the same service named another way resumes: a trailing slash, an upper-case host, a profile with the same URL and key', async () => {
    await leaveJournal();
    const url = new URL(t.sandbox.url);
    // Another profile, in a config of its own, naming the service with a trailing slash and an upper-case scheme.
    const config = mkdtempSync(join(tmpdir(), 'email-test-config-'));
    writeFileSync(join(config, 'config.json'), JSON.stringify({ defaultProfile: 'ops', profiles: { ops: { baseUrl: `HTTP://${url.host}/`, apiKey: t.sandbox.apiKey } } }), { mode: 0o600 });
    const before = t.sandbox.requestCount();
    const r = await email(['--resume'], { EMAIL_BASE_URL: undefined, EMAIL_API_KEY: undefined, EMAIL_CONFIG_DIR: config });
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: ROWS, new: ROWS, resumed: true, resumedBatches: 4 });
    expect(importRequests(t.sandbox, before)).toHaveLength(1);
    expect(leftOver()).toEqual([]);
  });

  it('an old journal (version 1, no service) is refused with the clear version message', async () => {
    await leaveJournal();
    const [header, ...batches] = journalLines();
    writeJournal([{ ...header, version: 1, service: undefined }, ...batches]);
    await expectResumeRefused(/was written by another version of this tool \(journal version 1\)/);
  });
});

describe('the journal is never written through a link', () => {
  it('--resume refuses a symlink planted at the journal path; the file it points to is untouched', async () => {
    await leaveJournal();
    // "Another user's file": here any file outside, holding what the journal held, so the link looks like the journal.
    const outside = mkdtempSync(join(tmpdir(), 'email-victim-'));
    const victim = join(outside, 'victim.jsonl');
    writeFileSync(victim, readFileSync(journalPath()), { mode: 0o600 });
    const before = readFileSync(victim);
    rmSync(journalPath());
    symlinkSync(victim, journalPath());
    const r = await email(['--resume']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/journal .* is a symbolic link/);
    expect(readFileSync(victim).equals(before)).toBe(true);
    expect(lstatSync(journalPath()).isSymbolicLink()).toBe(true);
  });
});

describe('one import holds a journal at a time', () => {
  const startImport = (more: string[] = []) => startCli(args(...more), { cwd: t.dir, env: t.env });

  const journaledBatches = () => (existsSync(journalPath()) ? readFileSync(journalPath(), 'utf8').split('\n').slice(1).filter((l) => l.endsWith('}')).length : 0);

  it('two imports of the same file at once: the second is refused naming the first, nothing sent by it; the journal the first saves stays', async () => {
    // The first holds the lock (a batch journaled) before the second starts, and slow answers and small
    // batches leave it 50 batches of 250 ms to go: however slowly the second starts, the first is still running.
    await t.restart({ latencyMs: 250 });
    const first = startImport(['--batch-size', '100']);
    await waitUntil(() => journaledBatches() >= 1 || first.child.exitCode !== null, 'the first import to journal a batch', 25_000);
    const second = startImport(['--batch-size', '100']);
    await second.exited;
    const runs = [first, second];
    const running = runs.filter((run) => run.child.exitCode === null && run.child.signalCode === null);
    expect(running, 'exactly one import still running').toHaveLength(1);
    // The reported case: one is interrupted (and says its journal is saved) while the other goes on.
    running[0]!.child.kill('SIGINT');
    const codes = await Promise.all(runs.map((run) => run.exited));
    const refused = runs.find((run) => run.child.exitCode === 2);
    const interrupted = runs.find((run) => run.child.exitCode === 130);
    expect(codes.sort(), runs.map((run) => run.output().stderr).join('\n')).toEqual([130, 2]);
    expect(refused!.output().stderr).toMatch(new RegExp(`the journal \\S+ is in use by another import \\(pid ${interrupted!.child.pid}\\)`));
    expect(refused!.output().stdout).toBe('');
    expect(JSON.parse(interrupted!.output().stdout).journal).toBe(journalPath());
    // The journal the interrupted import said it saved is there, and no batch was sent twice.
    expect(existsSync(journalPath())).toBe(true);
    const sent = importRequests(t.sandbox).map((r) => r.body.Subscribers[0]!.EmailAddress);
    expect(new Set(sent).size).toBe(sent.length);
    expect(existsSync(`${journalPath()}.lock`)).toBe(false);
  });

  it('a lock left by a process that is gone is taken over, with a line saying so, and removed at the end', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('close', resolve));
    writeFileSync(`${journalPath()}.lock`, `${JSON.stringify({ pid: dead.pid, host: hostname(), nonce: 'abc', createdAt: new Date(0).toISOString() })}\n`, { mode: 0o600 });
    const r = await email();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`took over the lock of the journal \\S+ left by pid ${dead.pid}, which is no longer running`));
    expect(leftOver()).toEqual([]);
  });

  it('a live lock refuses the import (exit 2) naming its pid; the lock is left alone', async () => {
    const lock = `${journalPath()}.lock`;
    const content = `${JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'abc', createdAt: new Date().toISOString() })}\n`;
    writeFileSync(lock, content, { mode: 0o600 });
    const before = t.sandbox.requestCount();
    const r = await email();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`is in use by another import \\(pid ${process.pid}\\)`));
    expect(t.sandbox.requestCount()).toBe(before);
    expect(readFileSync(lock, 'utf8')).toBe(content);
  });

  it('an import that ends with no batch acknowledged leaves no journal, no lock and no temporary file', async () => {
    const r = await email([], { EMAIL_API_KEY: 'wrong-key-1234' });
    expect(r.code, r.stderr).toBe(4);
    expect(leftOver()).toEqual([]);
  });
});

describe('a journal is checked when read', () => {
  /** Resumes after replacing the batch records by what `change` makes of them. */
  async function tampered(change: (batches: Record<string, unknown>[]) => unknown[], message: RegExp) {
    await leaveJournal();
    const [header, ...batches] = journalLines();
    writeJournal([header, ...change(batches)]);
    return expectResumeRefused(message);
  }

  it('batch records beyond what the file holds are refused: no row is counted as imported without a request', async () => {
    await tampered((batches) => [...batches, ...[5, 6, 7, 8, 9].map((n) => ({ ...batches[0], batch: n }))], /the journal \S+ .*batch 10, but the file holds at most 5 batches/);
  });

  it('a batch recorded twice is refused', async () => {
    await tampered((batches) => [...batches, batches[0]], /the journal \S+ .*batch \d+ is recorded twice/);
  });

  it('"failures": 7 is refused as damaged (it was an unexpected internal error)', async () => {
    await tampered((batches) => [{ ...batches[0], failures: 7 }, ...batches.slice(1)], /the journal \S+ is damaged: line 2: failures/);
  });

  it('"service": null is refused as damaged (it was an unexpected internal error)', async () => {
    await tampered((batches) => [{ ...batches[0], service: null }, ...batches.slice(1)], /the journal \S+ is damaged: line 2: service/);
  });

  it('bogus failure entries are refused (they made "rows 5001" of a 5,000-row file)', async () => {
    await tampered(
      (batches) => [{ ...batches[0], failed: 1, failures: [[3, '206', 'bogus']] }, ...batches.slice(1)],
      /the journal \S+ .*batch \d+: new \+ existing \+ failed is 1001, not its 1000 rows/,
    );
  });

  it('failure positions out of range or repeated are refused', async () => {
    await tampered(
      (batches) => [{ ...batches[0], new: 998, failed: 2, failures: [[1000, '1', 'x'], [1000, '1', 'x']] }, ...batches.slice(1)],
      /the journal \S+ .*batch \d+: failure position 1000 is not a row of the batch/,
    );
  });

  it('a batch of more rows than --batch-size, or a short batch that is not the last, is refused', async () => {
    await tampered((batches) => [{ ...batches[0], rows: 1001, new: 1001 }, ...batches.slice(1)], /batch \d+ has 1001 rows; --batch-size is 1000/);
  });

  it('negative or fractional service totals are refused', async () => {
    await tampered((batches) => [{ ...batches[0], service: [-1, 0, 1000] }, ...batches.slice(1)], /the journal \S+ is damaged: line 2: service/);
  });

  it('a line that is not JSON in the middle is refused; a torn last line is dropped and its batch sent again', async () => {
    await leaveJournal();
    const text = readFileSync(journalPath(), 'utf8');
    const lines = text.split('\n');
    writeFileSync(journalPath(), [lines[0], '{"batch": 1, "rows"', ...lines.slice(1)].join('\n'));
    await expectResumeRefused(/the journal \S+ is damaged: line 2 is not JSON/);
    // A crash tears only the last line: tolerated.
    writeFileSync(journalPath(), `${text}{"batch":0,"rows":10`);
    const before = t.sandbox.requestCount();
    const r = await email(['--resume']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: ROWS, new: ROWS, resumedBatches: 4 });
    expect(importRequests(t.sandbox, before)).toHaveLength(1);
    expect(leftOver()).toEqual([]);
  });
});

describe('--restart discards the journal deliberately', () => {
  it('an unfinished import is started over from the first row, saying so; no journal is left', async () => {
    await leaveJournal();
    const before = t.sandbox.requestCount();
    const r = await email(['--restart']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/--restart: discarded the journal \S+ \(4 batches acknowledged\); starting from the first row/);
    const summary = JSON.parse(r.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: ROWS, resumed: false });
    expect(summary.new + summary.existing).toBe(ROWS);
    expect(importRequests(t.sandbox, before)).toHaveLength(ROWS / BATCH);
    expect(leftOver()).toEqual([]);
  });

  it('a damaged journal is discarded too; a file that is no journal is refused and left alone; with no journal it just runs', async () => {
    await leaveJournal();
    const [header] = journalLines();
    writeFileSync(journalPath(), `${JSON.stringify(header)}\n{"batch": "damaged"}\n{}\n`);
    const r = await email(['--restart']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/--restart: discarded the journal \S+ \(damaged, or written by another version\)/);
    expect(leftOver()).toEqual([]);
    // A --journal naming some other file by mistake: --restart does not delete it.
    writeFileSync(journalPath(), 'not a journal\n');
    const before = t.sandbox.requestCount();
    const refused = await email(['--restart']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/is not an import journal/);
    expect(readFileSync(journalPath(), 'utf8')).toBe('not a journal\n');
    expect(t.sandbox.requestCount()).toBe(before);
    rmSync(journalPath());
    const again = await email(['--restart']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/discarded/);
  });

  it('refused (exit 2) while another import holds the journal\'s lock: nothing sent, journal and lock left alone', async () => {
    await leaveJournal();
    const journal = readFileSync(journalPath());
    const lock = `${journalPath()}.lock`;
    const content = `${JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'abc', createdAt: new Date().toISOString() })}\n`;
    writeFileSync(lock, content, { mode: 0o600 });
    const before = t.sandbox.requestCount();
    const r = await email(['--restart']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`is in use by another import \\(pid ${process.pid}\\)`));
    expect(t.sandbox.requestCount()).toBe(before);
    expect(readFileSync(journalPath()).equals(journal)).toBe(true);
    expect(readFileSync(lock, 'utf8')).toBe(content);
  });

  it('--restart with --resume, or with --dry-run, is a usage error before anything is read', async () => {
    const cases: [string[], RegExp][] = [
      [['--restart', '--resume'], /--restart starts over from the first row and --resume continues: give one of them/],
      [['--restart', '--dry-run'], /--dry-run sends nothing and keeps no journal: there is none to --restart/],
    ];
    for (const [more, message] of cases) {
      const before = t.sandbox.requestCount();
      const r = await email(more);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(t.sandbox.requestCount()).toBe(before);
    }
  });
});

describe('every batch record is bound to the import that wrote it', () => {
  /** A self-consistent record of a batch that was never sent, carrying the MAC of a genuine line. */
  const forged = (n: number, rows: number, mac: unknown) => ({ batch: n, rows, new: rows, existing: 0, failed: 0, retries: 0, service: [rows, 0, rows], failures: [], mac });

  it('records appended for the batches an interrupted import did not send are refused naming the line; nothing is sent or skipped wrongly', async () => {
    await t.restart({ latencyMs: 150 });
    const journaled = () => (existsSync(journalPath()) ? readFileSync(journalPath(), 'utf8').split('\n').slice(1).filter((l) => l.endsWith('}')).length : 0);
    const run = startCli(args('--batch-size', '500'), { cwd: t.dir, env: t.env });
    for (let i = 0; i < 500 && journaled() < 2; i++) await new Promise((r) => setTimeout(r, 20));
    run.child.kill('SIGINT');
    expect(await run.exited, run.output().stderr).toBe(130);
    const genuine = readFileSync(journalPath(), 'utf8');
    const [, ...batches] = journalLines();
    const sent = batches.map((b) => b.batch as number);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThan(10);
    // The attack: the batches not sent recorded as acknowledged, 500 rows each, through the last.
    const missing = [...Array(10).keys()].filter((n) => !sent.includes(n));
    writeFileSync(journalPath(), genuine + missing.map((n) => `${JSON.stringify(forged(n, 500, batches.at(-1)!.mac))}\n`).join(''));
    const r = await expectResumeRefused(new RegExp(`the journal \\S+ .*line ${batches.length + 2}\\b`), {}, t.sandbox, ['--batch-size', '500']);
    expect(r.stderr).toMatch(/--restart/);
    // The genuine journal resumes: every row sent exactly once over both runs, none counted that was not.
    writeFileSync(journalPath(), genuine);
    const before = t.sandbox.requestCount();
    const resumed = await email(['--resume', '--batch-size', '500']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: ROWS, new: ROWS, complete: true, resumedBatches: sent.length });
    expect(importRequests(t.sandbox, before)).toHaveLength(missing.length);
    const addresses = importRequests(t.sandbox).flatMap((q) => q.body.Subscribers.map((s: { EmailAddress: string }) => s.EmailAddress));
    expect(new Set(addresses).size).toBe(ROWS);
    expect(leftOver()).toEqual([]);
  });

  it('an edited record, even one whose counts still add up, is refused naming its line', async () => {
    await leaveJournal();
    const [header, ...batches] = journalLines();
    writeJournal([header, batches[0], { ...batches[1], new: 0, existing: 1000, service: [1000, 1000, 0] }, ...batches.slice(2)]);
    await expectResumeRefused(/the journal \S+ was altered: line 3 /);
  });

  it('reordered records are refused, naming the first line out of place', async () => {
    await leaveJournal();
    const [header, ...batches] = journalLines();
    writeJournal([header, batches[1], batches[0], ...batches.slice(2)]);
    await expectResumeRefused(/the journal \S+ was altered: line 2 /);
  });

  it('a record removed from the middle is refused, naming the line after the gap', async () => {
    await leaveJournal();
    const [header, ...batches] = journalLines();
    writeJournal([header, batches[0], ...batches.slice(2)]);
    await expectResumeRefused(/the journal \S+ was altered: line 3 /);
  });

  it('records written with another key, under this key\'s header, are refused naming the first of them', async () => {
    await leaveJournal();
    const [header] = journalLines();
    rmSync(journalPath());
    const other = await startSandbox({ port: 0, apiKey: 'other-key-98765' });
    others.push(other);
    await leaveJournal(other, { EMAIL_BASE_URL: other.url, EMAIL_API_KEY: 'other-key-98765' });
    const [, ...batches] = journalLines();
    writeJournal([header, ...batches]);
    await expectResumeRefused(/the journal \S+ was altered: line 2 /);
  });

  it('a journal of the format before records were bound (version 2) is refused, never trusted, and --restart discards it', async () => {
    await leaveJournal();
    const [header, ...batches] = journalLines();
    const strip = ({ mac: _mac, ...rest }: Record<string, unknown>) => rest;
    writeJournal([{ ...strip(header), version: 2 }, ...batches.map(strip)]);
    await expectResumeRefused(/was written by another version of this tool \(journal version 2\)/);
    const r = await email(['--restart']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/--restart: discarded the journal/);
  });

});

describe('an input in a folder that cannot be written', () => {
  /**
   * Runs bin/email with t.dir/ro read-only: a read-only bind mount in a
   * private mount namespace (root ignores file modes), or the folder's mode
   * for anyone else; undefined where neither can be built.
   */
  function readOnlyRunner(): ((more: string[]) => ReturnType<typeof spawnCli>) | undefined {
    const ro = join(t.dir, 'ro');
    const env = { ...t.env, XDG_STATE_HOME: join(t.dir, 'state') };
    const argv = (more: string[]) => ['subscribers', 'import', 'people.csv', '--list', LIST, '--batch-size', String(BATCH), '--concurrency', '1', '--json', ...more];
    if (process.getuid?.() !== 0) {
      chmodSync(ro, 0o555);
      return (more) => spawnCli(argv(more), { cwd: ro, env });
    }
    const probe = spawnSync('unshare', ['-m', 'sh', '-c', `mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && ! touch "$1/probe" 2>/dev/null`, 'sh', ro]);
    if (probe.status !== 0) return undefined;
    const wrap = ['unshare', '-m', 'sh', '-c', 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"', ro];
    return (more) => spawnCli(argv(more), { cwd: ro, env, wrap });
  }

  it('the journal goes to the state directory (0700), the import says where, and --resume finds it there', async (ctx) => {
    mkdirSync(join(t.dir, 'ro'));
    writeFile(join(t.dir, 'ro'), 'people.csv', peopleCsv(ROWS));
    const run = readOnlyRunner();
    if (!run) {
      ctx.skip('no read-only folder can be built here: not root with unshare and mount, nor a user whom file modes stop');
      return;
    }
    t.sandbox.failNext({ path: /\/import$/, status: 500, times: 4 });
    const first = await run([]);
    expect(first.code, first.stderr).toBe(3);
    const states = join(t.dir, 'state', 'email-cli', 'import-journals');
    const [journal, ...others] = readdirSync(states);
    expect(others).toEqual([]);
    expect(journal).toMatch(new RegExp(`^[0-9a-f]{16}\\.people\\.csv\\.${LIST.slice(0, 8)}\\.import-journal$`));
    expect(lstatSync(states).mode & 0o777).toBe(0o700);
    expect(lstatSync(join(t.dir, 'state', 'email-cli')).mode & 0o777).toBe(0o700);
    expect(lstatSync(join(states, journal!)).mode & 0o777).toBe(0o600);
    expect(first.stderr).toContain(`cannot be written (`);
    expect(first.stderr).toContain(`the journal of this import is ${join(states, journal!)}`);
    expect(readdirSync(join(t.dir, 'ro'))).toEqual(['people.csv']);

    const before = t.sandbox.requestCount();
    const resumed = await run(['--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ rows: ROWS, new: ROWS, resumed: true, resumedBatches: 4 });
    expect(importRequests(t.sandbox, before)).toHaveLength(1);
    expect(readdirSync(states), 'the journal is removed once every batch is acknowledged').toEqual([]);
  });
});
