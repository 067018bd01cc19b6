// `email subscribers import` reading what the shell hands it, through the real
// binary (CLI.md "Import input"): a FIFO, a process substitution `<(…)`, a
// device; a pipe is copied to a private temporary file that is removed
// whatever happens, an interrupt while it is read ends the command at once,
// binary data is refused after its first bytes, and a file too wide or with a
// record too long is refused before anything is sent (issue 17, points 8 and 9).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spoolLimit } from '../../src/import/input.js';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { BIN, requireBuild, runCli, spawnCli, startCli, type CliResult } from '../helpers/cli.js';
import { expectCountsAddUp, listAddresses, peopleCsv, writeFile } from '../helpers/import-files.js';
import { sandboxPerTest } from '../helpers/sandbox.js';

const LIST = SEED_LIST_IDS.customers;
const ROWS = 250;

const t = sandboxPerTest();
/** TMPDIR of the command: where a pipe's copy is made, and must be gone after. */
let tmp: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  tmp = join(t.dir, '.tmp');
  mkdirSync(tmp, { mode: 0o700 });
  t.env.TMPDIR = tmp;
  writeFile(t.dir, 'people.csv', peopleCsv(ROWS));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const importArgs = (file: string, ...more: string[]) => ['subscribers', 'import', file, '--list', LIST, '--batch-size', '100', '--json', ...more];
/** Without --json: the error is the one line a person reads. */
const plainArgs = (file: string, ...more: string[]) => ['subscribers', 'import', file, '--list', LIST, ...more];

/** A shell script run beside the files ($1, $2… are its arguments), kept until the test ends. */
function sh(script: string, ...args: string[]): ChildProcess {
  const child = spawn('sh', ['-c', script, 'sh', ...args], { cwd: t.dir, stdio: 'ignore' });
  children.push(child);
  return child;
}

function mkfifo(name: string): string {
  const path = join(t.dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

/** Runs bin/email under bash, so the arguments may use process substitution. */
function viaBash(commandLine: string): Promise<CliResult> {
  requireBuild();
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `exec "$EMAIL_TEST_NODE" "$EMAIL_TEST_BIN" ${commandLine}`], {
      cwd: t.dir,
      env: { PATH: process.env.PATH ?? '', ...t.env, EMAIL_TEST_NODE: process.execPath, EMAIL_TEST_BIN: BIN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Starts bin/email without waiting for it (for the interrupts); killed after the test if still running. */
function startImport(argv: string[]) {
  const run = startCli(argv, { cwd: t.dir, env: t.env });
  children.push(run.child);
  return run;
}

async function waitFor(what: string, condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(condition(), what).toBe(true);
}

/** The files of the copy being written (inside the command's private directory under TMPDIR). */
function spoolFiles(): string[] {
  return readdirSync(tmp).flatMap((d) => readdirSync(join(tmp, d)).map((f) => join(tmp, d, f)));
}

function expectAllImported(r: CliResult): void {
  expect(r.code, r.stderr).toBe(0);
  const summary = JSON.parse(r.stdout);
  expectCountsAddUp(summary);
  expect(summary).toMatchObject({ rows: ROWS, new: ROWS, failed: 0, rejected: 0, complete: true });
  const onList = listAddresses(t.sandbox, LIST);
  for (let i = 0; i < ROWS; i++) expect.soft(onList.has(`person${i}@example.com`)).toBe(true);
}

/** Nothing left behind: no journal, lock or temporary file beside the input, no copy in TMPDIR. */
function expectNothingLeft(...inputs: string[]): void {
  expect(readdirSync(t.dir).sort()).toEqual(['.tmp', ...inputs].sort());
  expect(readdirSync(tmp)).toEqual([]);
}

describe('inputs that cannot seek (issue 17.8)', () => {
  it('a process substitution <(cat people.csv) imports every row, and leaves no copy behind', async () => {
    const r = await viaBash(`subscribers import <(cat people.csv) --list ${LIST} --batch-size 100 --json`);
    expectAllImported(r);
    expectNothingLeft('people.csv');
  });

  it('--failures from a pipe: a row the service refused is written with its cells, read again from the copy', async () => {
    // The newsletter list holds unsubscribed@example.com as unsubscribed: the service refuses it (206).
    writeFile(t.dir, 'mixed.csv', 'email,name,Consent\nok@example.com,OK,yes\nbad@,Bad,yes\nunsubscribed@example.com,U,yes\n');
    const r = await viaBash(`subscribers import <(cat mixed.csv) --list ${SEED_LIST_IDS.newsletter} --failures failed.csv`);
    expect(r.code, r.stderr).toBe(3);
    expect(readFileSync(join(t.dir, 'failed.csv'), 'utf8').trim().split('\r\n')).toEqual([
      'email,name,Consent,Line,Outcome,Code,Message',
      'bad@,Bad,yes,3,rejected,1,"invalid email address ""bad@"""',
      'unsubscribed@example.com,U,yes,4,failed,206,Address in the unsubscribed list; not added.',
    ]);
    expectNothingLeft('people.csv', 'mixed.csv', 'failed.csv');
  });

  it('a FIFO imports every row; no journal is kept beside it', async () => {
    mkfifo('list.fifo');
    sh('cat people.csv > list.fifo');
    const r = await spawnCli(importArgs('list.fifo'), { cwd: t.dir, env: t.env });
    expectAllImported(r);
    expect(JSON.parse(r.stdout).journal).toBeUndefined();
    expectNothingLeft('people.csv', 'list.fifo');
  });

  it('--resume of a pipe needs --journal, and says so before reading it', async () => {
    mkfifo('list.fifo');
    const r = await spawnCli(importArgs('list.fifo', '--resume'), { cwd: t.dir, env: t.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--resume needs --journal <file> when the CSV comes from a pipe \(list\.fifo\)/);
    expect(t.sandbox.requestCount()).toBe(0);
  });

  it('with --journal, an import from a FIFO interrupted half-way is resumed from the same data piped again', async () => {
    await t.restart({ latencyMs: 40 });
    mkfifo('list.fifo');
    const journal = join(t.dir, 'pipe.journal');
    const batches = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').slice(1).filter((l) => l.endsWith('}')).length : 0);
    sh('cat people.csv > list.fifo');
    const run = startImport(importArgs('list.fifo', '--batch-size', '10', '--concurrency', '1', '--journal', 'pipe.journal'));
    await waitFor('three batches are journaled', () => batches() >= 3);
    run.child.kill('SIGINT');
    expect(await run.exited, run.output().stderr).toBe(130);
    expect(batches()).toBeLessThan(ROWS / 10);
    sh('cat people.csv > list.fifo');
    const resumed = await spawnCli(importArgs('list.fifo', '--batch-size', '10', '--concurrency', '1', '--journal', 'pipe.journal', '--resume'), { cwd: t.dir, env: t.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: ROWS, resumed: true, complete: true });
    expect(summary.resumedBatches).toBeGreaterThanOrEqual(3);
    const onList = listAddresses(t.sandbox, LIST);
    for (let i = 0; i < ROWS; i++) expect.soft(onList.has(`person${i}@example.com`)).toBe(true);
    expectNothingLeft('people.csv', 'list.fifo');
  });

  it('binary data from a FIFO (cat /dev/zero) is refused after its first bytes: exit 2, nothing sent, no copy left', async () => {
    mkfifo('zero.fifo');
    sh('exec cat /dev/zero > zero.fifo');
    const r = await spawnCli(plainArgs('zero.fifo'), { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^error: zero\.fifo does not look like CSV text/m);
    expect(t.sandbox.requestCount()).toBe(0);
    expectNothingLeft('people.csv', 'zero.fifo');
    const dev = await spawnCli(plainArgs('/dev/zero'), { cwd: t.dir, env: t.env });
    expect(dev.code, dev.stderr).toBe(2);
    expect(dev.stderr).toMatch(/\/dev\/zero does not look like CSV text/);
  });

  it('Ctrl-C while a FIFO has no writer yet: exit 130 at once, no copy left', async () => {
    mkfifo('list.fifo');
    const run = startImport(importArgs('list.fifo'));
    await waitFor('the copy is started', () => readdirSync(tmp).length > 0);
    run.child.kill('SIGINT');
    expect(await run.exited, run.output().stderr).toBe(130);
    expect(run.output().stderr).toMatch(/interrupted/);
    expectNothingLeft('people.csv', 'list.fifo');
    expect(t.sandbox.requestCount()).toBe(0);
  });

  it('SIGTERM while the writer of a FIFO never closes it: exit 130 at once, no copy left', async () => {
    mkfifo('list.fifo');
    sh('exec 3>list.fifo; head -n 50 people.csv >&3; exec sleep 60');
    const run = startImport(importArgs('list.fifo'));
    await waitFor('the first rows are copied', () => spoolFiles().some((f) => statSync(f).size > 0));
    run.child.kill('SIGTERM');
    expect(await run.exited, run.output().stderr).toBe(130);
    expectNothingLeft('people.csv', 'list.fifo');
    expect(t.sandbox.requestCount()).toBe(0);
  });
});

describe('very wide files and long records (issue 17.9)', () => {
  const wideCsv = (columns: number, rows: number) => {
    const header = ['email', ...Array.from({ length: columns - 1 }, (_, i) => `c${i}`)].join(',');
    const lines = [header];
    for (let r = 0; r < rows; r++) lines.push([`w${r}@example.com`, ...Array.from({ length: columns - 1 }, (_, i) => `v${i}`)].join(','));
    return `${lines.join('\n')}\n`;
  };

  it('a header of 100,000 columns is exit 2 before anything is sent, one line, nothing left behind', async () => {
    writeFile(t.dir, 'wide.csv', wideCsv(100_000, 3));
    const r = await spawnCli(plainArgs('wide.csv', '--consent', 'yes'), { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^error: wide\.csv: the header has 100,000 columns; at most 1,000 are accepted$/m);
    expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('hint:'))).toHaveLength(1);
    expect(t.sandbox.requestCount()).toBe(0);
    expectNothingLeft('people.csv', 'wide.csv');
    // The same file through a pipe: its copy is removed too.
    const piped = await viaBash(`subscribers import <(cat wide.csv) --list ${LIST} --consent yes`);
    expect(piped.code, piped.stderr).toBe(2);
    expect(piped.stderr).toMatch(/the header has 100,000 columns; at most 1,000 are accepted/);
    expectNothingLeft('people.csv', 'wide.csv');
  });

  it('a record longer than 1 MiB is exit 2 before anything is sent, naming its line', async () => {
    const long = 'x'.repeat(2 * 1024 * 1024);
    writeFile(t.dir, 'long.csv', `email,name,a,b,c\nok@example.com,Ok,1,2,3\nlong@example.com,${long},1,2,3\n`);
    const r = await spawnCli(plainArgs('long.csv', '--consent', 'yes'), { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^error: long\.csv: the record at line 3 is longer than 1 MiB/m);
    expect(t.sandbox.requestCount()).toBe(0);
    expectNothingLeft('people.csv', 'long.csv');
  });

  it('a data row of 100,000 cells under a 5-column header is one rejected row, the others are imported', async () => {
    const wide = Array.from({ length: 100_000 }, (_, i) => `v${i}`).join(',');
    writeFile(t.dir, 'ragged.csv', `email,name,a,b,c\nok@example.com,Ok,1,2,3\nbad@example.com,${wide}\nfine@example.com,Fine,1,2,3\n`);
    const r = await spawnCli(importArgs('ragged.csv', '--consent', 'yes'), { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(3);
    const summary = JSON.parse(r.stdout);
    expectCountsAddUp(summary);
    expect(summary).toMatchObject({ rows: 3, new: 2, rejected: 1 });
    expect(r.stderr).toMatch(/1 of 3 rows not imported/);
  });
});

describe('an output that is the input, by any path (issue 27.3)', () => {
  /** Exit 2 naming the clash, nothing sent, the input as it was. */
  function expectRefused(r: CliResult, what: RegExp, content: string): void {
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(what);
    expect(t.sandbox.requestCount()).toBe(0);
    expect(readFileSync(join(t.dir, 'people.csv'), 'utf8')).toBe(content);
  }

  it('--failures naming the file standard input reads (by its name, a hard link, /dev/stdin, /proc/self/fd/0) is refused', async () => {
    const content = readFileSync(join(t.dir, 'people.csv'), 'utf8');
    execFileSync('ln', ['people.csv', 'hard.csv'], { cwd: t.dir });
    for (const failures of ['people.csv', 'hard.csv', '/dev/stdin', '/proc/self/fd/0']) {
      const r = await viaBash(`subscribers import - --list ${LIST} --failures ${failures} < people.csv`);
      expectRefused(r, /^error: --failures \S+ is the input file \(standard input\)/m, content);
    }
    // The input named /dev/stdin: read where it is, and still the same file.
    const named = await viaBash(`subscribers import /dev/stdin --list ${LIST} --failures hard.csv < people.csv`);
    expectRefused(named, /^error: --failures \S+ is the input file \/dev\/stdin/m, content);
    expect(readdirSync(t.dir).sort()).toEqual(['.tmp', 'hard.csv', 'people.csv']);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('--journal naming the input (standard input, a hard link, the file itself) is refused, the input kept', async () => {
    const content = readFileSync(join(t.dir, 'people.csv'), 'utf8');
    execFileSync('ln', ['people.csv', 'hard.csv'], { cwd: t.dir });
    for (const [input, journal] of [['- < people.csv', 'people.csv'], ['- < people.csv', 'hard.csv'], ['people.csv', 'hard.csv'], ['people.csv', 'people.csv']]) {
      const r = await viaBash(`subscribers import ${input} --list ${LIST} --journal ${journal} --restart`);
      // The journal is read first, and a file that is not one is never replaced.
      expectRefused(r, /^error: \S+ is not an import journal/m, content);
    }
    expect(readdirSync(t.dir).sort()).toEqual(['.tmp', 'hard.csv', 'people.csv']);
  });
});

describe('endless text on standard input (issue 27.4)', () => {
  it('past the cap on the copy of a pipe: exit 2 with a hint to save the file, nothing sent, no copy left', async () => {
    const saved = { cap: spoolLimit.maxBytes, tmp: process.env.TMPDIR };
    spoolLimit.maxBytes = 1024 ** 2;
    process.env.TMPDIR = tmp;
    try {
      const r = await runCli(plainArgs('-'), { cwd: t.dir, env: t.env, stdin: 'email,name\n' + 'a@x.com,A\n'.repeat(200_000) });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^error: stdin: more than 1 MiB came through the pipe, the most its copy in \S+ may hold; nothing was sent$/m);
      expect(r.stderr).toMatch(/^hint: Save the data to a file first and import that file/m);
      expect(t.sandbox.requestCount()).toBe(0);
      expect(readdirSync(tmp).filter((f) => f.startsWith('email-import-'))).toEqual([]);
      // Under the cap the same pipe imports.
      const fits = await runCli(importArgs('-'), { cwd: t.dir, env: t.env, stdin: readFileSync(join(t.dir, 'people.csv'), 'utf8') });
      expectAllImported(fits);
    } finally {
      spoolLimit.maxBytes = saved.cap;
      if (saved.tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved.tmp;
    }
  });

  it("the next copy removes a killed run's copy in TMPDIR, and nothing else", async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.on('exit', r));
    const old = new Date(Date.now() - 2 * 3600_000);
    const make = (name: string, files: string[], mode = 0o700, when = old) => {
      const path = join(tmp, name);
      mkdirSync(path, { mode });
      for (const f of files) {
        writeFileSync(join(path, f), 'email\na@x.com\n');
        utimesSync(join(path, f), when, when);
      }
      utimesSync(path, when, when);
      return path;
    };
    make(`email-import-${dead.pid}-AbC123`, ['stdin.csv']);
    const kept = [
      make(`email-import-${process.pid}-Alive1`, ['stdin.csv']), // its process is alive
      make(`email-import-${dead.pid}-Fresh1`, ['input.csv'], 0o700, new Date()), // touched just now
      make(`email-import-${dead.pid}-Other1`, ['stdin.csv', 'notes.txt']), // holds something else
      make(`email-import-${dead.pid}-Mode01`, ['stdin.csv'], 0o755), // not a private directory
      make('email-import-Old123', ['stdin.csv']), // no pid in its name
    ];
    symlinkSync(kept[0]!, join(tmp, `email-import-${dead.pid}-Link01`));
    const r = await viaBash(`subscribers import - --list ${LIST} --batch-size 100 --json < people.csv`);
    expectAllImported(r);
    expect(readdirSync(tmp).sort()).toEqual([...kept.map((p) => p.slice(tmp.length + 1)), `email-import-${dead.pid}-Link01`].sort());
  });
});
