// Every recipe of docs/scripting.md, run whole by a shell as a user pastes it
// (`email` on PATH is bin/email; jq is the system's), against the sandbox:
// pipes, redirections and jq included, so the stderr recipes
// (`2>error.json; jq -r .error.kind error.json`) are tested as written.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { SEED_SMART_EMAIL_IDS } from '../../src/sandbox/seed-campaigns.js';
import { BIN, requireBuild, tempConfigDir } from '../helpers/cli.js';
import { peopleCsv } from '../helpers/import-files.js';

const CAMPAIGN = 'c0000000-0000-4000-8000-000000000001';
const MISSING = '00000000-0000-4000-8000-000000000009';
const GUIDE = readFileSync(new URL('../../docs/scripting.md', import.meta.url), 'utf8');
const RECIPES = [...GUIDE.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

let sandbox: RunningSandbox;
let bin: string;

beforeAll(async () => {
  requireBuild();
  sandbox = await startSandbox({ port: 0 });
  bin = mkdtempSync(join(tmpdir(), 'email-recipes-bin-'));
  writeFileSync(join(bin, 'email'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'email'), 0o755);
});
afterAll(() => sandbox.stop());

/** The recipe with its placeholders filled: `<id>` by what the words before it name. */
function filled(recipe: string, campaign = CAMPAIGN): string {
  return recipe
    .replaceAll('transactional get <id>', `transactional get ${SEED_SMART_EMAIL_IDS.passwordReset}`)
    .replaceAll('--list <id>', `--list ${SEED_LIST_IDS.newsletter}`)
    .replaceAll('<list-id>', SEED_LIST_IDS.newsletter)
    .replaceAll('--email <addr>', '--email ada@example.com')
    .replaceAll('<id>', campaign);
}

/**
 * Runs a recipe with bash (errexit, pipefail) in a fresh directory holding
 * people.csv, one row of which is refused. Asynchronously: the sandbox answers from this process.
 */
async function runRecipe(script: string): Promise<{ code: number; stdout: string; stderr: string; cwd: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'email-recipe-'));
  writeFileSync(join(cwd, 'people.csv'), `${peopleCsv(3).trimEnd()}\nnot-an-address,Broken,X,yes\n`);
  const child = spawn('bash', ['-eo', 'pipefail', '-c', script], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: cwd, EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey, EMAIL_RETRY_BASE_MS: '5' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c ?? -1));
  });
  return { code, stdout, stderr, cwd };
}

describe('docs/scripting.md recipes, run whole by a shell', () => {
  it('has recipes, among them the stderr ones', () => {
    expect(RECIPES.length).toBeGreaterThan(5);
    expect(RECIPES.some((r) => r.includes('2>error.json') && r.includes('jq -r .error.kind error.json'))).toBe(true);
  });

  for (const recipe of RECIPES) {
    it(`runs: ${recipe.trim().split('\n')[0]}`, async () => {
      const r = await runRecipe(filled(recipe));
      expect(r.code, `${r.stderr}\n${r.stdout.slice(0, 500)}`).toBe(0);
      expect(r.stderr).not.toMatch(/jq: error|parse error/);
    });
  }

  it('the error recipe names the kind of a failure: a campaign that does not exist is "service"', async () => {
    const recipe = RECIPES.find((r) => r.includes('2>error.json'))!;
    const r = await runRecipe(filled(recipe, MISSING));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('failed: service\n');
  });

  it('the recipe for commands that say more first names the kind too: a partial import', async () => {
    const recipe = RECIPES.find((r) => r.includes("jq -rs 'last"))!;
    const r = await runRecipe(filled(recipe));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('failed: partial\n');
  });

  it('the machine-mode stderr recipe reads the walk\'s paging facts', async () => {
    const recipe = RECIPES.find((r) => r.includes('stderr.ndjson') && r.includes('"page"'))!;
    const r = await runRecipe(filled(recipe));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+ records from \d+ pages\n$/);
  });
});

describe("the README's CI gate", () => {
  // The lines after its "# a CI gate" comment, as a CI job runs them (bash -e: a non-zero exit fails the job).
  const gate = /# a CI gate[^\n]*\n(?:#[^\n]*\n)*(email [^\n]+)\n/.exec(README)?.[1];

  it('fails the job on any row not imported: a rejected row is enough', async () => {
    expect(gate).toBeDefined();
    const r = await runRecipe(filled(gate!));
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/1 of 4 rows not imported \(1 rejected before sending\)/);
  });

  it('passes when every row was imported', async () => {
    const r = await runRecipe(`head -4 people.csv > clean.csv\n${filled(gate!).replace('people.csv', 'clean.csv')}`);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(r.cwd, 'import-summary.json'), 'utf8'))).toMatchObject({ rows: 3, rejected: 0, failed: 0 });
  });
});
