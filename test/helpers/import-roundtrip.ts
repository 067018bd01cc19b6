// The import's round trip as a property, shared by
// test/e2e/import-roundtrip.test.ts (a few cases in `npm test`) and
// scripts/soak-import.mjs (many more). Both run bin/email as a subprocess, as
// a user's CI does, against the sandbox of dist/sandbox.cjs started in this
// process, whose state the checks read between runs (the service has no call
// that reads one subscriber: service-spec.md "Subscribers").
//
// One case (import-roundtrip-case.ts): a messy CSV imported with --journal
// and --failures, interrupted when the sandbox has received its n-th batch
// (SIGINT; two SIGINTs a few ms apart, as `timeout` and CI runners send them;
// two far apart; or SIGKILL), --resume until it completes; then the failures
// file fixed as a user would and imported again, as a file, from stdin, a
// FIFO or <(cat …). Checked after each step: invariants that need no oracle
// (every summary adds up, the failures file lists each row not imported once
// and agrees with the summary, the import sends exactly the accepted rows'
// addresses), and the oracle's outcomes and state (import-roundtrip-oracle.ts).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { DEFAULT_MAX_ROWS, renderCase, roundTripCase, type CaseLimits, type Interruption, type Rendered, type RoundTripCase } from './import-roundtrip-case.js';
import { consentFlagOf, expectedExit, fixFailuresFile, oracle, readFailuresFile, spreadsheetForm, type Expected, type Subscriber } from './import-roundtrip-oracle.js';

const ROOT = new URL('../../', import.meta.url);
export const BIN = fileURLToPath(new URL('bin/email', ROOT));
const SANDBOX_BUNDLE = fileURLToPath(new URL('dist/sandbox.cjs', ROOT));

/** The seeded Newsletter list: it has a Text (Company), a Number (Age) and a Date (Birthday) field. */
export const LIST_ID = '11111111-1111-4111-8111-111111111111';

/** The names of the properties a case checks, as reports print them. */
export const PROPERTIES = {
  counts: 'every --json summary adds up (rows = new + existing + failed + rejected + duplicates)',
  tally: 'the failures file lists each row not imported once, and its outcomes are the summary\'s counts',
  sent: 'the import sends exactly the accepted rows\' addresses (the first valid row of each, lower-cased)',
  outcomes: 'the completed import counts each row as the oracle does (and exits accordingly)',
  complete: 'a run that says "complete": true or exits 0 left no row missing',
  failuresFile: 'the failures file lists exactly the rows not imported, with their cells',
  graceful: 'after one Ctrl-C (or two within 100 ms) the batches in flight were journaled: --resume sends none again',
  interruptedJson: 'an interrupted import under --json ends stderr with {"error":{"kind":"interrupted"}}',
  resumes: '--resume completes the import',
  noConsent: 'no consent column and no --consent: exit 2, nothing sent, one message naming --consent',
  reimport: 'the fixed failures file imports (any input: file, stdin, FIFO, <(…))',
  final: 'each address holds its first valid row; no duplicate overwrote one',
} as const;
export type Property = keyof typeof PROPERTIES;

export interface Violation {
  property: Property;
  detail: string;
}
export interface RoundTripResult {
  violations: Violation[];
  transcript: string[];
  rendered: Rendered;
}
export interface CheckOptions {
  limits?: CaseLimits;
  /** Let fast-check look for a smaller failing case (each try runs the whole round trip). */
  shrink?: boolean;
  /** Stop shrinking after this long. */
  shrinkTimeMs?: number;
  /** Keep the files of a failing case and name their folder in the transcript. */
  keepDir?: boolean;
  /** fast-check's path of a shrunk case (its report names it): replays that case of the seed. */
  path?: string;
}

interface Summary {
  rows: number;
  new: number;
  existing: number;
  failed: number;
  rejected: number;
  duplicates: number;
  complete: boolean;
}
interface Run {
  argv: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  signalled?: Interruption['kind'];
  signalGapMs?: number;
  stdout: string;
  stderr: string;
  summary?: Summary;
  /** The addresses of the import requests the sandbox received during the run, lower-cased. */
  sent: string[];
  requests: number;
}
interface Context {
  sandbox: RunningSandbox;
  dir: string;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RUN_TIMEOUT_MS = 30_000;
const show = (v: unknown) => JSON.stringify(v);
const isImport = (r: RunningSandbox['requests'][number]) => r.method === 'POST' && r.path.endsWith('/import');

function importedAddresses(sandbox: RunningSandbox, since: number): string[] {
  const bodies = sandbox.requests.slice(since).filter(isImport).map((r) => r.body as { Subscribers?: { EmailAddress: unknown }[] } | null);
  return bodies.flatMap((b) => (b?.Subscribers ?? []).map((s) => String(s.EmailAddress).trim().toLowerCase()));
}

/** Runs `email <argv>` in the case's folder and, given an interruption, signals it once the sandbox has received that many import requests of this run. */
async function runEmail(ctx: Context, argv: string[], options: { interruption?: Interruption; stdin?: Buffer; shell?: string; baseUrl?: string } = {}): Promise<Run> {
  const { interruption, stdin, shell, baseUrl } = options;
  const since = ctx.sandbox.requestCount();
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: ctx.dir, EMAIL_BASE_URL: baseUrl ?? ctx.sandbox.url, EMAIL_API_KEY: ctx.sandbox.apiKey, EMAIL_CONFIG_DIR: join(ctx.dir, 'config'), EMAIL_RETRY_BASE_MS: '5' };
  const child = shell
    ? spawn('bash', ['-c', shell, 'bash', process.execPath, BIN, ...argv], { cwd: ctx.dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, [BIN, ...argv], { cwd: ctx.dir, env, stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  if (stdin !== undefined) {
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(stdin);
  }
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const run: Partial<Run> = {};
  let done = false;
  void closed.then(() => (done = true));
  if (interruption) {
    void (async () => {
      while (!done && ctx.sandbox.requests.slice(since).filter(isImport).length < interruption.afterBatches) await wait(2);
      if (done) return;
      await wait(interruption.delayMs);
      if (done) return;
      run.signalled = interruption.kind;
      if (interruption.kind === 'sigkill') return void child.kill('SIGKILL');
      child.kill('SIGINT');
      if (interruption.kind === 'sigint') return;
      const gap = interruption.kind === 'sigint-twice-fast' ? interruption.fastGapMs : interruption.slowGapMs;
      const first = performance.now();
      if (gap > 0) await wait(gap);
      if (done) return;
      child.kill('SIGINT');
      // As sent, not as planned: a busy machine can stretch a planned 5 ms past 100 ms.
      run.signalGapMs = performance.now() - first;
    })();
  }
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  const { code, signal } = await closed;
  clearTimeout(timer);
  let summary: Summary | undefined;
  try {
    summary = stdout.trim() ? (JSON.parse(stdout) as Summary) : undefined;
  } catch {
    summary = undefined;
  }
  const shown = shell ? [...argv.slice(0, 2), shell.includes('<(') ? '<(cat failures.csv)' : '', ...argv.slice(2)].filter(Boolean) : argv;
  return { ...run, argv: shown, code, signal, stdout, stderr, summary, sent: importedAddresses(ctx.sandbox, since), requests: ctx.sandbox.requestCount() - since };
}

function describeRun(r: Run): string {
  const how = r.signalled ? ` after ${r.signalled}` : '';
  const s = r.summary;
  const counts = s ? ` rows ${s.rows}: new ${s.new}, existing ${s.existing}, failed ${s.failed}, rejected ${s.rejected}, duplicates ${s.duplicates}, complete ${s.complete}` : '';
  const err = r.stderr.trim().split('\n').slice(-3).join(' | ');
  return `email ${r.argv.join(' ')}${how} → ${r.signal ?? `exit ${r.code}`};${counts}; sent ${r.sent.length} rows in ${r.requests} requests${err ? `; stderr: ${err.slice(0, 600)}` : ''}`;
}

/** The sandbox's view of the list: lower-cased address → its Name, consent, the three fields and state. */
function listState(sandbox: RunningSandbox): Map<string, Subscriber> {
  const list = sandbox.state().lists[LIST_ID]!;
  const out = new Map<string, Subscriber>();
  for (const [k, s] of Object.entries(list.Subscribers)) {
    const fields: Record<string, string> = {};
    for (const [field, values] of Object.entries(s.CustomFields as Record<string, string[]>)) {
      const bare = field.replace(/^\[|\]$/g, '');
      if (['Company', 'Age', 'Birthday'].includes(bare)) fields[bare] = values.join('|');
    }
    out.set(k, { name: s.Name, consent: s.ConsentToTrack, fields, state: s.State });
  }
  return out;
}

/** Differences between the sandbox's list and a model, each naming the line the value should have come from. */
function compareState(actual: Map<string, Subscriber>, model: Map<string, Subscriber>): string[] {
  const problems: string[] = [];
  for (const [k, want] of model) {
    const got = actual.get(k);
    const from = want.line ? `line ${want.line}` : 'the seed';
    if (!got) {
      problems.push(`${k} is missing (expected from ${from})`);
      continue;
    }
    const diffs: string[] = [];
    if (got.name !== want.name) diffs.push(`Name ${show(got.name)}, expected ${show(want.name)}`);
    if (got.consent !== want.consent) diffs.push(`ConsentToTrack ${got.consent}, expected ${want.consent}`);
    for (const f of ['Company', 'Age', 'Birthday']) if ((got.fields[f] ?? null) !== (want.fields[f] ?? null)) diffs.push(`${f} ${show(got.fields[f] ?? null)}, expected ${show(want.fields[f] ?? null)}`);
    if (diffs.length) problems.push(`${k} (expected from ${from}): ${diffs.join('; ')}`);
  }
  for (const k of actual.keys()) if (!model.has(k)) problems.push(`${k} is on the list but no row should have put it there`);
  return problems;
}

const jsonError = (line: string): { kind?: string } | undefined => {
  try {
    return (JSON.parse(line) as { error?: { kind?: string } })?.error;
  } catch {
    return undefined;
  }
};

/** The checks of the completed import's failures file that need no oracle, then the oracle's. */
function checkFailuresFile(violate: (p: Property, d: string) => void, failures: ReturnType<typeof readFailuresFile>, s: Summary, rendered: Rendered, expected: Expected): void {
  const lines = failures.rows.map((f) => f.line);
  const twice = lines.filter((line, i) => lines.indexOf(line) !== i);
  const tally = (outcome: string) => failures.rows.filter((f) => f.outcome === outcome).length;
  const listed = { failed: tally('failed'), rejected: tally('rejected'), duplicates: tally('duplicate') };
  if (twice.length || failures.rows.length !== s.failed + s.rejected + s.duplicates || show(listed) !== show({ failed: s.failed, rejected: s.rejected, duplicates: s.duplicates })) {
    violate('tally', `the file lists ${show(listed)}${twice.length ? ` and lines ${twice.join(', ')} more than once` : ''}; the summary says failed ${s.failed}, rejected ${s.rejected}, duplicates ${s.duplicates}`);
  }
  const byLine = new Map(failures.rows.map((f) => [f.line, f]));
  const wanted = new Map(expected.outcomes.filter((o) => o.outcome !== 'imported' && o.outcome !== 'blank').map((o) => [o.line, o]));
  const wrong = [...new Set([...byLine.keys(), ...wanted.keys()])].sort((a, b) => a - b).filter((line) => byLine.get(line)?.outcome !== wanted.get(line)?.outcome);
  if (wrong.length) {
    const says = (f?: (typeof failures.rows)[number]) => (f ? `${f.outcome} (${f.record.slice(rendered.columns.length + 2).join(': ').slice(0, 160)})` : 'not listed');
    const should = (o?: Expected['outcomes'][number]) => (o ? `${o.outcome}${o.why ? ` (${o.why})` : o.of ? ` of line ${o.of}` : ''}` : 'imported, not listed');
    violate('failuresFile', wrong.map((line) => `line ${line} is ${says(byLine.get(line))}, expected ${should(wanted.get(line))}`).join('; '));
  }
  const input = new Map(rendered.rows.map((r) => [r.line, r.cells]));
  for (const f of failures.rows) {
    const cells = input.get(f.line);
    if (cells && show(f.cells) !== show(cells.map(spreadsheetForm))) violate('failuresFile', `line ${f.line}: cells ${show(f.cells)}, the input has ${show(cells)}`);
  }
}

/** Runs one case end to end: the properties it violated (none when it holds) and a transcript of the runs, for the report. */
export async function runRoundTrip(c: RoundTripCase, options: CheckOptions = {}): Promise<RoundTripResult> {
  if (!existsSync(SANDBOX_BUNDLE)) throw new Error('dist/sandbox.cjs is missing: run `npm run build` first (bin/email and the sandbox run from dist/)');
  const { startSandbox } = (await import(SANDBOX_BUNDLE)) as { startSandbox(o: { port: number; latencyMs: number }): Promise<RunningSandbox> };
  const rendered = renderCase(c);
  const violations: Violation[] = [];
  const transcript: string[] = [];
  const violate = (property: Property, detail: string) => violations.push({ property, detail });
  const dir = mkdtempSync(join(tmpdir(), 'email-roundtrip-'));
  const sandbox = await startSandbox({ port: 0, latencyMs: c.run.latencyMs });
  const ctx = { sandbox, dir };
  const expected = oracle(c, rendered, listState(sandbox));
  // The interruption comes at the n-th batch of those the file should have (wrapped round), so most plans do interrupt.
  const batches = Math.max(1, Math.ceil((expected.counts.imported + expected.counts.failed) / c.run.batchSize));
  const at = (i?: Interruption) => i && { ...i, afterBatches: 1 + ((i.afterBatches - 1) % batches) };
  const record = (r: Run) => {
    transcript.push(describeRun(r));
    const s = r.summary;
    if (s && typeof s.rows === 'number' && s.new + s.existing + s.failed + s.rejected + s.duplicates !== s.rows) violate('counts', `${describeRun(r)}: the counts add up to ${s.new + s.existing + s.failed + s.rejected + s.duplicates}`);
    const lastLine = r.stderr.trim().split('\n').pop() ?? '';
    if (r.code === 130 && jsonError(lastLine)?.kind !== 'interrupted') violate('interruptedJson', `${describeRun(r)}: the last line of stderr is ${show(lastLine)}`);
    return r;
  };
  try {
    writeFileSync(join(dir, 'people.csv'), rendered.bytes);
    const flag = consentFlagOf(c);
    // The model counts a value that cannot be sent as a rejected row (--strict), and generates rows without names (--allow-empty-names).
    const base = ['subscribers', 'import', 'people.csv', '--list', LIST_ID, '--journal', 'people.journal', '--failures', 'failures.csv', '--batch-size', String(c.run.batchSize), '--concurrency', String(c.run.concurrency), '--json', '--allow-empty-names', '--strict'];
    const command = flag ? [...base, '--consent', flag] : base;

    // A file without a consent column, imported without --consent: one refusal after the header (CLI.md `--consent`).
    if (c.layout.consentHeader === null) {
      const r = record(await runEmail(ctx, base));
      const lines = r.stderr.trim().split('\n').filter(Boolean);
      // One message (and its hint); the line naming vendor columns may come before it.
      if (r.code !== 2 || r.requests !== 0 || !r.stderr.includes('--consent') || lines.length > 3) violate('noConsent', `${describeRun(r)} (${lines.length} lines on stderr)`);
      rmSync(join(dir, 'failures.csv'), { force: true });
      rmSync(join(dir, 'people.journal'), { force: true });
    }

    // The import, interrupted, resumed until it completes.
    let completed: Run | undefined;
    const runs: Run[] = [];
    for (let attempt = 0; attempt < c.run.interruptions.length + 3 && !completed; attempt++) {
      const resume = attempt > 0;
      const r = record(await runEmail(ctx, resume ? [...command, '--resume'] : command, { interruption: at(c.run.interruptions[attempt]), baseUrl: resume && c.run.slashOnResume ? `${sandbox.url}/` : undefined }));
      runs.push(r);
      if (r.code !== null && r.code !== 130 && r.summary?.complete === true) completed = r;
      else if (r.code !== null && r.code !== 130) {
        violate('resumes', `${describeRun(r)}: neither complete nor interrupted`);
        break;
      }
      if (r.code === 0 || r.summary?.complete === true) {
        const missing = compareState(listState(sandbox), expected.afterImport);
        if (missing.length) violate('complete', `${describeRun(r)}, but: ${missing.join('; ')}`);
      }
    }
    // A graceful stop (one SIGINT, or two less than 100 ms apart) finishes and journals the batches in flight.
    for (let i = 0; i + 1 < runs.length; i++) {
      const r = runs[i]!;
      const oneInterruption = r.signalled === 'sigint' || (r.signalled?.startsWith('sigint-twice') && (r.signalGapMs === undefined || r.signalGapMs < 50));
      if (r.code !== 130 || !oneInterruption) continue;
      const sentAgain = runs[i + 1]!.sent.filter((a) => r.sent.includes(a));
      // A signal that lands after the last batch's answer: exit 130, yet the summary says complete and the journal is gone.
      const late = r.summary?.complete === true ? ' (its summary says "complete": true and it kept no journal, though it exits 130 as interrupted)' : '';
      if (sentAgain.length) violate('graceful', `${describeRun(r)}; then the resume sent again ${[...new Set(sentAgain)].join(', ')}${late}`);
    }
    if (!completed) {
      if (!violations.some((v) => v.property === 'resumes')) violate('resumes', `not complete after ${runs.length} runs`);
      return { violations, transcript, rendered };
    }

    const sent = new Set(runs.flatMap((r) => r.sent));
    if (show([...sent].sort()) !== show([...expected.sent].sort())) violate('sent', `sent ${show([...sent].sort())}, the accepted rows are of ${show([...expected.sent].sort())}`);
    const s = completed.summary!;
    const want = expected.counts;
    const got = { rows: s.rows, imported: s.new + s.existing, failed: s.failed, rejected: s.rejected, duplicates: s.duplicates };
    if (show(got) !== show(want) || completed.code !== expectedExit(want)) violate('outcomes', `${show(got)} exit ${completed.code}, expected ${show(want)} exit ${expectedExit(want)}`);

    const failuresPath = join(dir, 'failures.csv');
    const failures = existsSync(failuresPath) ? readFailuresFile(readFileSync(failuresPath, 'utf8'), rendered.columns.length) : undefined;
    const notImported = want.failed + want.rejected + want.duplicates;
    if (notImported && !failures) violate('failuresFile', `no failures file, expected ${notImported} rows`);
    if (failures) checkFailuresFile(violate, failures, s, rendered, expected);

    // The user fixes the failures file and imports it again.
    if (failures && failures.rows.length) {
      writeFileSync(failuresPath, fixFailuresFile(rendered, expected, failures));
      const again = ['--list', LIST_ID, '--allow-empty-names', '--strict', '--failures', 'failures-2.csv', '--batch-size', String(c.run.batchSize), '--concurrency', String(c.run.concurrency), '--json', ...(flag ? ['--consent', flag] : [])];
      const via = {
        file: () => runEmail(ctx, ['subscribers', 'import', 'failures.csv', '--journal', 'failures.journal', ...again]),
        stdin: () => runEmail(ctx, ['subscribers', 'import', '-', ...again], { stdin: readFileSync(failuresPath) }),
        fifo: () => {
          execFileSync('mkfifo', [join(dir, 'failures.fifo')]);
          return runEmail(ctx, ['subscribers', 'import', 'failures.fifo', ...again], { shell: '(timeout 20 sh -c "cat failures.csv > failures.fifo" &) ; exec "$@"' });
        },
        // As a shell runs `email subscribers import <(cat failures.csv) …`: the CLI gets /dev/fd/N, a pipe.
        'process-substitution': () => runEmail(ctx, ['subscribers', 'import', ...again], { shell: 'node=$1; bin=$2; shift 4; exec "$node" "$bin" subscribers import <(cat failures.csv) "$@"' }),
      };
      const r = record(await via[c.reimport.via]());
      if (!(r.code !== null && [0, 1, 2, 3].includes(r.code) && r.summary?.complete === true)) violate('reimport', describeRun(r));
    }

    const wrong = compareState(listState(sandbox), expected.final);
    if (wrong.length) violate('final', wrong.join('; '));
    return { violations, transcript, rendered };
  } finally {
    await sandbox.stop();
    if (options.keepDir && violations.length) transcript.push(`files kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** The report of a failing case: the seed, the properties, the file, the runs. */
export function describeFailure(seed: number, c: RoundTripCase, result: RoundTripResult, path?: string, limits: CaseLimits = {}): string {
  const props = [...new Set(result.violations.map((v) => v.property))];
  const rerun = `node scripts/soak-import.mjs --seed ${seed} --runs 1 --max-rows ${limits.maxRows ?? DEFAULT_MAX_ROWS}${path ? ` --path ${path}` : ''}`;
  return [
    `seed ${seed}${path ? `, shrunk (path ${path})` : ''}: ${props.length} ${props.length === 1 ? 'property' : 'properties'} violated (rerun: ${rerun})`,
    ...result.violations.map((v) => `  ✗ ${PROPERTIES[v.property]}\n      ${v.detail}`),
    '  the file (JSON-escaped lines):',
    ...result.rendered.bytes
      .toString('utf8')
      .split(/(?<=\n)/)
      .map((l) => `    ${JSON.stringify(l)}`),
    `  the plan: ${JSON.stringify({ pool: c.pool, run: c.run, reimport: c.reimport, consentColumn: c.layout.consentHeader })}`,
    '  the runs:',
    ...result.transcript.map((t) => `    ${t}`),
  ].join('\n');
}

export interface SeedOutcome {
  failed: boolean;
  /** The seed, the properties violated with their details, the file and the runs. */
  report?: string;
  counterexample?: RoundTripCase;
  properties: Property[];
}

/**
 * Generates the case of `seed` and runs it: the same seed gives the same case
 * in the test and in the soak. With `shrink`, fast-check then looks for a
 * smaller case that still fails (slow: each try runs the whole round trip).
 */
export async function checkSeed(seed: number, options: CheckOptions = {}): Promise<SeedOutcome> {
  const failing = new Map<RoundTripCase, RoundTripResult>();
  const property = fc.asyncProperty(roundTripCase(options.limits), async (c) => {
    const result = await runRoundTrip(c, options);
    if (result.violations.length) {
      failing.set(c, result);
      throw new Error(describeFailure(seed, c, result, undefined, options.limits));
    }
  });
  const details = await fc.check(property, {
    seed,
    numRuns: 1,
    ...(options.path ? { path: options.path } : {}),
    endOnFailure: !options.shrink,
    plugins: options.shrinkTimeMs ? [fc.interruptAfterTimeLimit(options.shrinkTimeMs)] : [],
  } as fc.Parameters<[RoundTripCase]>);
  const counterexample = details.counterexample?.[0];
  const result = counterexample ? failing.get(counterexample) : undefined;
  const path = details.counterexamplePath && details.counterexamplePath !== '0' ? details.counterexamplePath : undefined;
  return {
    failed: details.failed,
    report: details.failed ? (result ? describeFailure(seed, counterexample!, result, path, options.limits) : String((details.errorInstance as Error | undefined)?.message ?? 'failed')) : undefined,
    counterexample,
    properties: result ? [...new Set(result.violations.map((v) => v.property))] : [],
  };
}
