// Temporary files a killed run left beside the user's files (SIGKILL, a
// power cut between the write and the rename: core/private-file.ts) are
// removed by the next run that writes that file again, through the real
// binary: only files under the tool's own temporary names, whose process is
// gone and which were left untouched for long; never a user's file, never a
// link, never one a live run may still be writing.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli, startCli, tempConfigDir } from '../helpers/cli.js';
import { peopleCsv, tempDir, writeFile } from '../helpers/import-files.js';
import { post, waitUntil, within } from '../helpers/webhooks.js';

const LIST = SEED_LIST_IDS.customers;
/** A pid no process has now. */
const gone = spawnSync(process.execPath, ['-e', '0']).pid;
const HOUR_AGO = new Date(Date.now() - 60 * 60 * 1000);

/** A file at `dir/name`, last touched `when`. */
function plant(dir: string, name: string, when: Date = HOUR_AGO, content = 'half-written\n'): string {
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o600 });
  utimesSync(path, when, when);
  return path;
}

describe('an import removes the temporary files a killed import left beside its journal, lock and failures file', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    dir = tempDir();
    writeFile(dir, 'people.csv', peopleCsv(20));
  });
  afterEach(async () => {
    await sandbox.stop();
  });

  it('removes only stale ones under its own names, and leaves the user files, links and live runs alone', async () => {
    const journal = `people.csv.${LIST.slice(0, 8)}.import-journal`;
    const stale = [
      plant(dir, `.${journal}.${gone}.0123456789abcdef.tmp`),
      plant(dir, `.${journal}.lock.${gone}.fedcba9876543210.tmp`),
      plant(dir, `.failed.csv.${gone}.00112233445566ff.tmp`),
    ];
    const kept = [
      // Fresh: a run on another machine sharing the folder may be writing it.
      plant(dir, `.${journal}.${gone}.1111111111111111.tmp`, new Date()),
      // Its process runs (this one).
      plant(dir, `.failed.csv.${process.pid}.2222222222222222.tmp`),
      // Not our names: the user's files.
      plant(dir, `.failed.csv.notes.tmp`),
      plant(dir, `.people.csv.${gone}.3333333333333333.tmp`),
      plant(dir, `failed.csv.${gone}.4444444444444444.tmp`),
    ];
    const target = plant(dir, 'target.txt', HOUR_AGO, 'the user\'s own\n');
    const link = join(dir, `.failed.csv.${gone}.5555555555555555.tmp`);
    symlinkSync(target, link);
    const env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey, EMAIL_CONFIG_DIR: tempConfigDir() };
    const r = await spawnCli(['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes', '--failures', 'failed.csv', '--json'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    for (const path of stale) expect(existsSync(path), path).toBe(false);
    for (const path of kept) expect(readFileSync(path, 'utf8'), path).toBe('half-written\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('the user\'s own\n');
  });

  it('removes the stale locks a killed takeover moved aside, only under its lock\'s own names', async () => {
    const lock = `people.csv.${LIST.slice(0, 8)}.import-journal.lock`;
    const TWO_DAYS_AGO = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    const stale = [
      plant(dir, `${lock}.${gone}.0123456789abcdef.stale`),
      // An earlier version's name, without the pid of the import that moved it: a day untouched.
      plant(dir, `${lock}.fedcba9876543210.stale`, TWO_DAYS_AGO),
    ];
    const kept = [
      // Its process runs (this one): a takeover in progress.
      plant(dir, `${lock}.${process.pid}.1111111111111111.stale`),
      // Fresh: an import on another machine sharing the folder may be taking over.
      plant(dir, `${lock}.${gone}.2222222222222222.stale`, new Date()),
      plant(dir, `${lock}.3333333333333333.stale`),
      // Not our names: the user's files, or another journal's lock.
      plant(dir, `${lock}.notes.stale`),
      plant(dir, `other.csv.import-journal.lock.${gone}.4444444444444444.stale`),
      plant(dir, `${lock}.${gone}.5555555555555555.stale.bak`),
    ];
    const target = plant(dir, 'target.txt', HOUR_AGO, 'the user\'s own\n');
    const link = join(dir, `${lock}.${gone}.6666666666666666.stale`);
    symlinkSync(target, link);
    const folder = join(dir, `${lock}.${gone}.7777777777777777.stale`);
    mkdirSync(folder);
    utimesSync(folder, HOUR_AGO, HOUR_AGO);
    const env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey, EMAIL_CONFIG_DIR: tempConfigDir() };
    const r = await spawnCli(['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes', '--json'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    for (const path of stale) expect(existsSync(path), path).toBe(false);
    for (const path of kept) expect(readFileSync(path, 'utf8'), path).toBe('half-written\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('the user\'s own\n');
    expect(lstatSync(folder).isDirectory()).toBe(true);
  });
});

describe('webhooks listen --save removes the temporary files a killed listener left in its folder', () => {
  it('at start, under its own names for deliveries only', async () => {
    const dir = join(tempDir('email-save-'), 'deliveries');
    mkdirSync(dir);
    const stale = plant(dir, `.delivery-20250304T050607089Z-000001.json.${gone}.0123456789abcdef.tmp`);
    const kept = [plant(dir, `.notes.txt.${gone}.0123456789abcdef.tmp`), plant(dir, `.delivery-20250304T050607089Z-000002.xml.${gone}.0123456789abcdef.tmp`, new Date())];
    const cli = startCli(['webhooks', 'listen', '--port', '0', '-o', 'ndjson', '--save', dir]);
    try {
      await waitUntil(() => /Listening on [^\s"]+/.test(cli.output().stderr), 'the listener to start', 20_000);
      const url = /Listening on ([^\s"]+)/.exec(cli.output().stderr)![1]!;
      const body = JSON.stringify({ Events: [{ Type: 'Subscribe', Date: '2025-03-04 05:06:07', EmailAddress: 'a@example.com', Name: 'A', CustomFields: [] }], ListID: LIST });
      expect((await within(10_000, post(url, body, 'application/json'))).status).toBe(200);
      cli.child.kill('SIGINT');
      expect(await within(20_000, cli.exited, 'the end after SIGINT')).toBe(0);
      expect(existsSync(stale)).toBe(false);
      for (const path of kept) expect(readFileSync(path, 'utf8'), path).toBe('half-written\n');
    } finally {
      cli.child.kill('SIGKILL');
    }
  }, 60_000);
});

describe('a command that writes the config removes the temporary files a killed write left beside config.json', () => {
  it('only the config store\'s own temporary names, and only stale ones', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // The config store's writer names them config.json.tmp-<10 digits><6 hex>.
    const stale = plant(dir, 'config.json.tmp-1764250000a1b2c3');
    const kept = [plant(dir, 'config.json.tmp-1764250001a1b2c4', new Date()), plant(dir, 'config.json.bak'), plant(dir, 'other.json.tmp-1764250000a1b2c3')];
    const r = await spawnCli(['config', 'set', 'list', LIST], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(stale)).toBe(false);
    for (const path of kept) expect(readFileSync(path, 'utf8'), path).toBe('half-written\n');
  });
});
