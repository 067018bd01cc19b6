// CLI.md "machine mode": under --json, -o json or -o ndjson every line of
// stderr is one JSON object with a `type` and a `message`, and a failure ends
// with the error object. Run through bin/email against the sandbox, as a CI
// script meets it: successes, failures of every kind, a paged --all, an import
// with progress and warnings, --debug, and an interrupted import.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { SEED_SEGMENT_IDS } from '../../src/sandbox/seed-campaigns.js';
import { spawnCli, startCli, tempConfigDir } from '../helpers/cli.js';
import { peopleCsv, tempDir, writeFile } from '../helpers/import-files.js';

const CAMPAIGN = 'c0000000-0000-4000-8000-000000000001';
const MISSING = '00000000-0000-4000-8000-000000000009';
const LIST = SEED_LIST_IDS.newsletter;
const TYPES = ['notice', 'warning', 'progress', 'wait', 'page', 'debug', 'error'];

let sandbox: RunningSandbox;
let slow: RunningSandbox;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  slow = await startSandbox({ port: 0, latencyMs: 40 });
  env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey, EMAIL_CONFIG_DIR: tempConfigDir() };
  dir = tempDir();
  // A column nothing maps (Company) is named on stderr before the first batch: a notice.
  writeFile(dir, 'people.csv', peopleCsv(40));
  writeFile(dir, 'mixed.csv', `${peopleCsv(5).trimEnd()}\nnot-an-address,Broken,X,yes\n`);
  writeFile(dir, 'many.csv', peopleCsv(3000));
});
afterAll(async () => {
  await sandbox.stop();
  await slow.stop();
});

interface Line {
  type: string;
  message: string;
  error?: { kind: string; status: number | null; code: number | null; message: string };
  [field: string]: unknown;
}

/** Every stderr line parsed as one JSON object with a known type and a message; fails naming the line that is not. */
function machineLines(stderr: string): Line[] {
  const lines = stderr.split('\n').filter((l) => l !== '');
  return lines.map((line) => {
    let value: unknown;
    expect(() => (value = JSON.parse(line)), `stderr line is not JSON: ${line}`).not.toThrow();
    expect(value, line).toBeTypeOf('object');
    const object = value as Line;
    expect(TYPES, line).toContain(object.type);
    expect(object.message, line).toBeTypeOf('string');
    return object;
  });
}

const email = (argv: string[], more: Record<string, string> = {}) => spawnCli(argv, { env: { ...env, ...more }, cwd: dir });

describe('machine mode: every stderr line is one JSON object', () => {
  const successes: [string, string[]][] = [
    ['a one-page listing (paging facts)', ['campaigns', 'unsubscribes', CAMPAIGN, '--json']],
    ['a paged --all', ['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--page-size', '10', '--json']],
    ['a paged --all as ndjson', ['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--page-size', '100', '-o', 'ndjson']],
    ['api --paginate', ['api', `/email/campaigns/${CAMPAIGN}/unsubscribes`, '--query', 'pagesize=100', '--paginate', '--json']],
    ['a read with --debug', ['campaigns', 'sent', '--json', '--debug']],
    ['a preview', ['campaigns', 'preview', CAMPAIGN, '--to', 'ada@example.com', '--json']],
    ['a segment update', ['segments', 'update', SEED_SEGMENT_IDS.newsletterEngaged, '--title', 'Gmail', '--json']],
    ['an import with a notice', ['subscribers', 'import', 'people.csv', '--list', LIST, '--json']],
    ['an import with progress lines', ['subscribers', 'import', 'people.csv', '--list', LIST, '--json', '--progress', '--map', 'Company=-']],
    ['a dry run', ['subscribers', 'import', 'people.csv', '--list', LIST, '--dry-run', '-o', 'json']],
    ['doctor', ['doctor', '--json']],
  ];
  for (const [what, argv] of successes) {
    it(`${what}: email ${argv.join(' ')}`, async () => {
      const r = await email(argv);
      const lines = machineLines(r.stderr);
      if (r.code !== 0) expect(lines.at(-1)?.type, r.stderr).toBe('error');
    });
  }

  it('the facts a script reads are typed: page, debug, progress', async () => {
    const page = machineLines((await email(['campaigns', 'unsubscribes', CAMPAIGN, '--json'])).stderr);
    expect(page.find((l) => l.type === 'page')).toMatchObject({ page: 1, pages: expect.any(Number), records: expect.any(Number) });
    const walk = machineLines((await email(['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--page-size', '100', '--json'])).stderr);
    expect(walk.find((l) => l.type === 'page')).toMatchObject({ records: expect.any(Number), pages: expect.any(Number) });
    const debug = machineLines((await email(['campaigns', 'sent', '--json', '--debug'])).stderr);
    expect(debug.filter((l) => l.type === 'debug').length).toBeGreaterThan(1);
    expect(debug.some((l) => l.message.includes('Bearer ***'))).toBe(true);
    const progress = machineLines((await email(['subscribers', 'import', 'people.csv', '--list', LIST, '--json', '--progress', '--map', 'Company=-'])).stderr);
    expect(progress.find((l) => l.type === 'progress')).toMatchObject({ rows: expect.any(Number), message: expect.stringContaining('importing people.csv') });
  });

  const failures: [string, string[], Record<string, string>, string, number][] = [
    ['a 404', ['campaigns', 'summary', MISSING, '--json'], {}, 'service', 1],
    ['a 404 as ndjson', ['campaigns', 'summary', MISSING, '-o', 'ndjson'], {}, 'service', 1],
    ['a usage error', ['campaigns', 'summary', 'nope', '--json'], {}, 'usage', 2],
    ['an unknown option', ['campaigns', 'summary', CAMPAIGN, '--colour', '-o', 'ndjson'], {}, 'usage', 2],
    ['a refused key', ['campaigns', 'sent', '--json'], { EMAIL_API_KEY: 'wrong' }, 'auth', 4],
    ['nothing listening', ['campaigns', 'sent', '--json', '--debug'], { EMAIL_BASE_URL: 'http://127.0.0.1:9' }, 'network', 1],
    ['a partial import', ['subscribers', 'import', 'mixed.csv', '--list', LIST, '--json', '--map', 'Company=-'], {}, 'partial', 3],
    ['a confirmation refused without a terminal', ['campaigns', 'unschedule', CAMPAIGN, '--json'], {}, 'usage', 2],
  ];
  for (const [what, argv, more, kind, code] of failures) {
    it(`${what} ends stderr with the error object (${kind}, exit ${code})`, async () => {
      const r = await email(argv, more);
      expect(r.code, r.stderr).toBe(code);
      const lines = machineLines(r.stderr);
      const last = lines.at(-1)!;
      expect(last.type).toBe('error');
      expect(last.error?.kind).toBe(kind);
      expect(last.message).toBe(last.error?.message);
    });
  }

  it('an interrupted import: every line JSON, the last one the interrupted error', async () => {
    const run = startCli(['subscribers', 'import', 'many.csv', '--list', LIST, '--batch-size', '100', '--concurrency', '2', '--json', '--progress', '--map', 'Company=-'], {
      env: { ...env, EMAIL_BASE_URL: slow.url, EMAIL_API_KEY: slow.apiKey },
      cwd: dir,
    });
    // Stopped once the service has answered a few batches.
    for (let i = 0; i < 500 && slow.requestCount() < 3; i++) await new Promise((r) => setTimeout(r, 20));
    run.child.kill('SIGINT');
    const code = await run.exited;
    const { stderr } = run.output();
    expect(code, stderr).toBe(130);
    const lines = machineLines(stderr);
    expect(lines.some((l) => l.type === 'warning' && l.message.startsWith('stopping'))).toBe(true);
    expect(lines.at(-1)?.error?.kind).toBe('interrupted');
  });
});
