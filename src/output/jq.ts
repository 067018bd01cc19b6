// --jq (CLI.md `--jq`): jq itself, compiled to WebAssembly (the jq-wasm
// package, jq 1.8), so the language is jq's own, not a look-alike, and CI
// images need no jq binary. Loaded only when --jq is given: it is a 1.3 MB
// module that no other command may pay for at startup (test/e2e/startup-guard).
//
// Output as `gh --jq`: a string result prints raw, any other result as compact
// JSON, one a line.
//
// With a stream (`--all`, paged walks) the expression runs per record when it
// has the form `.[] | f` (or is `.[]`): jq defines `.[] | f` as f on each
// element in turn, so running it on each slice of the list as it arrives gives
// the same lines in the same order, and they stream. Any other expression
// (`length`, `map(…)`, `sort_by(…)`) needs the whole array: it runs once, at the end.
import { CliError, ExitCode, UsageError } from '../core/errors.js';

export interface JqFilter {
  readonly expression: string;
  /** `.[] | f`: may run on any slice of a list, in order, instead of on the whole list. */
  readonly perRecord: boolean;
  /** The output lines for `input`, each ending in a line break. */
  run(input: unknown): string;
}

/** jq failed while running (e.g. `.a.b` on a number): the data was fetched, so not a usage error's exit 2. */
class JqRunError extends CliError {
  readonly exitCode = ExitCode.failure;
  readonly kind = 'usage';
  constructor(message: string) {
    super(message);
    this.name = 'JqRunError';
  }
}

/** `.[]` or `.[] | …` (but not the update-assignment `.[] |= …`). */
const PER_RECORD = /^\s*\.\[\]\s*(?:\|(?!=)[\s\S]*)?$/;

interface JqHandle {
  raw(input: unknown, query: string, flags?: string[]): { stdout: string; stderr: string; exitCode: number };
  json<T = unknown>(input: unknown, query: string, flags?: string[]): T[];
}

let handle: Promise<JqHandle> | undefined;

function engine(): Promise<JqHandle> {
  // The inline build carries the wasm bytes inside the module: the bundle has
  // no separate file to locate, wherever dist/ is installed.
  handle ??= import('jq-wasm/inline').then((m) => m.loadJq() as Promise<JqHandle>);
  return handle;
}

/** Compiles `expression` (a malformed one is a usage error, before anything is sent) and returns the filter. */
export async function compileJq(expression: string): Promise<JqFilter> {
  const jq = await engine();
  // Compiled without running it: `empty | (…)` produces nothing, whatever the expression does.
  const check = jq.raw(null, `empty | (\n${expression}\n)`, ['-n']);
  if (check.exitCode !== 0) {
    // The expression alone, for a message whose line and column are the user's (it fails to compile, so it does not run).
    const plain = jq.raw(null, expression, ['-n']);
    throw new UsageError(`--jq: ${firstLine(plain.exitCode === 3 ? plain.stderr : check.stderr)}`);
  }
  return {
    expression,
    perRecord: PER_RECORD.test(expression),
    run(input) {
      let results: unknown[];
      try {
        results = jq.json(input ?? null, expression);
      } catch (err) {
        throw new JqRunError(`--jq: ${firstLine(String((err as { stderr?: string }).stderr ?? (err as Error).message))}`);
      }
      return results.map((r) => `${typeof r === 'string' ? r : JSON.stringify(r)}\n`).join('');
    },
  };
}

function firstLine(stderr: string): string {
  const line = stderr.split('\n').find((l) => l.trim() !== '') ?? 'jq failed';
  return line
    .replace(/^jq: error(?: \(at [^)]*\))?:\s*/, '')
    .trim()
    .replace(/:$/, '');
}
