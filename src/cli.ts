// run(argv, deps) → exit code. The one place that maps errors to exit codes
// and prints them (CLI.md "Exit codes", "errors").
import { CommanderError, type Command } from 'commander';
import type { Input } from './commands/define.js';
import { GLOBAL_OPTIONS } from './commands/globals.js';
import type { Context, GlobalOptions, IO, Prompt } from './context.js';
import { errorKind, type ErrorKind } from './core/error-kind.js';
import { ApiError, AuthError, CliError, ExitCode, UsageError } from './core/errors.js';
import type { ApiClient } from './core/http.js';
import { Redactor } from './core/redact.js';
import { createEdges, isBrokenPipe } from './output/edges.js';
import { jsonForTerminal, neutralize, neutralizeLines } from './output/sanitize.js';
import { buildProgram, type ActionFactory } from './program.js';

export const HELP_WIDTH = 80;

export interface RunDeps {
  io: IO;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Aborted on Ctrl-C by main(); tests pass their own. */
  signal?: AbortSignal;
  /** Lets main() route Ctrl-C to a command's own handlers. */
  interrupts?: InterruptHub;
  prompt?: Prompt;
  now?: () => Date;
}

/** Routes Ctrl-C presses to the handlers a command registered. */
export class InterruptHub {
  private handlers = new Set<(count: number) => void>();
  private count = 0;
  register(handler: (count: number) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }
  /** Returns true when a command handled the press. */
  fire(): boolean {
    this.count++;
    if (!this.handlers.size) return false;
    for (const h of [...this.handlers]) h(this.count);
    return true;
  }
}

export async function run(argv: string[], deps: RunDeps): Promise<number> {
  // Everything below writes through the guarded streams (src/output/edges.ts);
  // the command's signal also stops it when the reader of stdout goes away.
  const edges = createEdges(deps.io, deps.signal);
  const { io } = edges;
  const guarded: RunDeps = { ...deps, io, signal: edges.signal };
  let exitCode: number = ExitCode.ok;
  const clients: ApiClient[] = [];
  const redactor = new Redactor();
  redactor.add(deps.env.EMAIL_API_KEY);

  const action: ActionFactory = (definition) => async (...actionArgs: unknown[]) => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    const [{ parseInput, parseOptions, parseShape }, { createOutput }] = await Promise.all([import('./commands/parse-input.js'), import('./output/render.js')]);
    const globals = resolveGlobals(parseOptions(GLOBAL_OPTIONS, program.opts()) as ParsedGlobals, guarded);
    const input = parseInput(definition, command.opts(), command.processedArgs);
    const shape = await parseShape(definition, command.opts(), globals.output);
    await edges.usePager({ enabled: globals.pager, env: deps.env });
    const ctx = createContext(guarded, globals, (o) => createOutput({ ...o, shape }), redactor, (c) => clients.push(c));
    const result = await definition.run(input, ctx);
    if (result && result.data !== undefined) await ctx.out.print(result.data, result.view);
    exitCode = (result && result.exitCode) ?? ExitCode.ok;
  };

  const program = buildProgram(action);
  program.exitOverride();
  // Help is wrapped at 80 columns everywhere, so it reads the same in a
  // terminal, a pipe and a CI log, and bin/email can answer a bare --help
  // from the text the build rendered (dist/help.txt) without loading the program.
  const output = {
    writeOut: (s: string) => void io.stdout.write(s),
    writeErr: (s: string) => void io.stderr.write(s),
    getOutHelpWidth: () => HELP_WIDTH,
    getErrHelpWidth: () => HELP_WIDTH,
    // Commander's own usage errors: one line, exit 2 (we print it in handleError).
    outputError: () => undefined,
  };
  program.configureOutput(output);
  for (const cmd of allCommands(program)) {
    cmd.exitOverride();
    cmd.configureOutput(output);
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    // The global options commander has read so far (it reads them before it
    // refuses an unknown option) decide the error's form.
    const { json, output, debug } = program.opts();
    const jsonErrors = json === true || String(output ?? '').toLowerCase() === 'json';
    // What stdout holds for the pager comes before the error line, as it was written.
    await edges.finish();
    // The reader of stdout went away: whatever that made fail, the command
    // ends quietly with 0, as `head` expects (CLI.md "broken pipe").
    exitCode = edges.stdoutClosed ? ExitCode.ok : handleError(err, { io, jsonErrors, debug: debug === true, redactor, aborted: deps.signal?.aborted ?? false });
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await edges.finish();
  }
  return exitCode;
}

function* allCommands(cmd: import('commander').Command): Generator<import('commander').Command> {
  for (const sub of cmd.commands) {
    yield sub;
    yield* allCommands(sub);
  }
}

type ParsedGlobals = Input<{}, typeof GLOBAL_OPTIONS>;

function resolveGlobals(all: ParsedGlobals, deps: RunDeps): GlobalOptions {
  const env = deps.env;
  // chalk's rules (CLI.md "colour"): FORCE_COLOR wins, then NO_COLOR / --no-color, then TTY.
  let color = deps.io.stdoutIsTTY && !all.noColor && env.NO_COLOR === undefined;
  if (env.FORCE_COLOR !== undefined && !all.noColor) color = env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return {
    profile: all.profile,
    baseUrl: all.baseUrl,
    insecureHttp: all.insecureHttp,
    output: all.json ? 'json' : all.output,
    quiet: all.quiet,
    debug: all.debug,
    color,
    pager: !all.noPager,
    timeoutMs: all.timeout === undefined ? undefined : all.timeout * 1000,
  };
}

function createContext(
  deps: RunDeps,
  globals: GlobalOptions,
  createOutput: typeof import('./output/render.js').createOutput,
  redactor: Redactor,
  onClient: (client: ApiClient) => void,
): Context {
  const { io, env } = deps;
  const signal = deps.signal ?? new AbortController().signal;
  const hub = deps.interrupts ?? new InterruptHub();
  const log = {
    info: (m: string) => {
      if (!globals.quiet) io.stderr.write(`${m}\n`);
    },
    warn: (m: string) => void io.stderr.write(`warning: ${redactor.redact(m)}\n`),
    debug: (m: string) => {
      if (globals.debug) io.stderr.write(`[debug] ${redactor.redact(m)}\n`);
    },
  };
  const makeClient = async (baseUrl: string, apiKey: string, connections?: number): Promise<ApiClient> => {
    const { ApiClient } = await import('./core/http.js');
    redactor.add(apiKey);
    const client = new ApiClient({
      baseUrl,
      apiKey,
      timeoutMs: globals.timeoutMs,
      debug: globals.debug ? (line) => io.stderr.write(`[debug] ${redactor.redact(line)}\n`) : undefined,
      // A wait of 5 s or more is announced (CLI.md "retries"), through the logger: not with --quiet.
      onWait: (line) => log.info(line),
      signal,
      retry: retryOverrides(env),
      connections,
    });
    onClient(client);
    return client;
  };
  let clientPromise: Promise<ApiClient> | undefined;
  const api = (options?: { connections?: number }) =>
    (clientPromise ??= (async () => {
      const { resolveCredentials } = await import('./core/config.js');
      const creds = await resolveCredentials({
        env,
        profileFlag: globals.profile,
        baseUrlFlag: globals.baseUrl,
        insecureHttp: globals.insecureHttp,
      });
      redactor.add(creds.apiKey);
      const source = creds.keySource.kind === 'env' ? 'env EMAIL_API_KEY' : `profile "${creds.keySource.profile}" (${creds.keySource.path})`;
      log.debug(`key from ${source}; base URL ${creds.baseUrl} from ${creds.baseUrlSource}`);
      for (const note of creds.notes) log.debug(note);
      return makeClient(creds.baseUrl, creds.apiKey, options?.connections);
    })());
  return {
    io,
    env,
    cwd: deps.cwd,
    globals,
    signal,
    onInterrupt: (handler) => hub.register(handler),
    log,
    out: createOutput({ format: globals.output, stdout: io.stdout, isTTY: io.stdoutIsTTY, color: globals.color, columns: io.columns }),
    prompt: deps.prompt ?? noPrompt,
    api,
    apiWith: ({ baseUrl, apiKey }) => makeClient(baseUrl, apiKey),
    now: deps.now ?? (() => new Date()),
  };
}

/** EMAIL_RETRY_BASE_MS / EMAIL_RETRY_MAX_WAIT_MS: for CI scripts that want shorter or longer patience, and for tests. */
function retryOverrides(env: Readonly<Record<string, string | undefined>>) {
  const out: { baseDelayMs?: number; maxTotalWaitMs?: number } = {};
  const base = Number(env.EMAIL_RETRY_BASE_MS);
  if (env.EMAIL_RETRY_BASE_MS && Number.isFinite(base) && base >= 0) out.baseDelayMs = base;
  const cap = Number(env.EMAIL_RETRY_MAX_WAIT_MS);
  if (env.EMAIL_RETRY_MAX_WAIT_MS && Number.isFinite(cap) && cap >= 0) out.maxTotalWaitMs = cap;
  return out;
}

const noPrompt: Prompt = {
  secret: async () => {
    throw new UsageError('cannot prompt: no terminal');
  },
  confirm: async () => false,
};

interface ErrorEnv {
  io: IO;
  jsonErrors: boolean;
  debug: boolean;
  redactor: Redactor;
  aborted: boolean;
  kind?: ErrorKind;
}

function handleError(err: unknown, env: ErrorEnv): number {
  const e = { ...env, kind: errorKind(err, { aborted: env.aborted, exitCode: err instanceof CommanderError ? ExitCode.usage : undefined }) };
  if (err instanceof CommanderError) {
    // A bare group (or bare `email`) shows its help on stderr and exits 0, like gh.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
      return ExitCode.ok;
    }
    if (err.code === 'commander.executeSubCommandAsync') return ExitCode.ok;
    return printError(e, { status: undefined, code: undefined, message: err.message.replace(/^error:\s*/i, '') }, ExitCode.usage);
  }
  if (e.aborted && !(err instanceof CliError)) {
    return printError(e, { message: 'interrupted' }, ExitCode.interrupted);
  }
  if (err instanceof CliError) {
    const status = err instanceof ApiError && err.status ? err.status : undefined;
    const code = err instanceof ApiError ? err.code : err instanceof UsageError ? err.code : undefined;
    const resultData = err instanceof ApiError ? err.resultData : undefined;
    let hint = err.hint;
    if (!hint && err instanceof AuthError && err.status === 401) {
      hint = 'The key was refused. Check it with `email auth status`, or store a new one with `email auth login`.';
    } else if (!hint && err instanceof AuthError && err.status === 403) {
      hint = 'The account is suspended or out of credits; check it in the web app.';
    }
    return printError(e, { status, code, message: err.message, fromService: err instanceof ApiError, resultData, hint }, err.exitCode);
  }
  const message = err instanceof Error ? err.message : String(err);
  if (e.debug && err instanceof Error && err.stack) e.io.stderr.write(`${e.redactor.redact(err.stack)}\n`);
  return printError(e, { message: `unexpected internal error: ${message}`, hint: e.debug ? undefined : 'Run again with --debug for details.' }, ExitCode.failure);
}

function printError(
  e: ErrorEnv,
  info: { status?: number; code?: number; message: string; fromService?: boolean; resultData?: unknown; hint?: string },
  exitCode: number,
): number {
  const message = e.redactor.redact(info.message);
  if (e.jsonErrors) {
    const error: Record<string, unknown> = { kind: e.kind, status: info.status ?? null, code: info.code ?? null, message };
    if (info.resultData !== undefined) error.resultData = info.resultData;
    // Still one valid JSON object with the service's message, its controls escaped (CLI.md "untrusted text").
    e.io.stderr.write(`${jsonForTerminal(e.redactor.redact(JSON.stringify({ error })))}\n`);
  } else {
    const label = info.code !== undefined ? `error ${info.code}` : 'error';
    const status = info.status && info.code === undefined ? ` (HTTP ${info.status})` : '';
    // The service's message stays one line, whatever it holds (a line break in it cannot pass
    // for a line of ours); ours may have several. The stderr guard (src/output/edges.ts) would
    // neutralise the rest anyway; said here so that no path forgets it.
    e.io.stderr.write(`${label}: ${info.fromService ? neutralize(message) : neutralizeLines(message)}${status}\n`);
    if (info.hint) e.io.stderr.write(`hint: ${neutralizeLines(e.redactor.redact(info.hint))}\n`);
  }
  return exitCode;
}

/** The process entry point used by bin/email. */
export async function main(): Promise<void> {
  const controller = new AbortController();
  const interrupts = new InterruptHub();
  let presses = 0;
  const interrupt = () => {
    presses++;
    if (interrupts.fire()) return;
    if (presses > 1) process.exit(ExitCode.interrupted);
    controller.abort(new Error('interrupted'));
  };
  // SIGTERM (a CI job cancelled, `kill`) gets the same orderly stop as Ctrl-C:
  // journals and sandbox state are saved before the process ends.
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  // Writes to a stdout whose reader went away reject with BrokenPipe (src/output/edges.ts).
  // A command may chain writes and await the chain later: such a rejection
  // is not a crash, and run() still ends the command with 0. Any other
  // unhandled rejection keeps Node's behaviour (a crash with its stack).
  process.on('unhandledRejection', (reason) => {
    if (!isBrokenPipe(reason)) throw reason;
  });
  // …nor is its being handled later worth a warning (only a BrokenPipe gets that far).
  process.on('rejectionHandled', () => undefined);
  const { createTerminalPrompt } = await import('./prompt.js');
  // A command whose promise never settles would let node run out of work and
  // exit 0, as if it had succeeded: a CI script must see a failure instead.
  let settled = false;
  process.once('beforeExit', () => {
    if (settled) return;
    process.stderr.write('error: the command stopped without finishing (a bug in email; run it again with --debug and report what it printed)\n');
    process.exit(1);
  });
  const code = await run(process.argv.slice(2), {
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      stdoutIsTTY: Boolean(process.stdout.isTTY),
      stderrIsTTY: Boolean(process.stderr.isTTY),
      stdinIsTTY: Boolean(process.stdin.isTTY),
      columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    },
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
    interrupts,
    prompt: createTerminalPrompt(),
  });
  settled = true;
  process.exitCode = code;
  // Once the command is done nothing else may run: exit as soon as stdout and
  // stderr are flushed. Left to itself the process lingers ~120 ms after
  // undici's pool has closed (measured in bench/startup), a third of a read command's time.
  await flushed(process.stdout);
  await flushed(process.stderr);
  process.exit(code);
}

/** Resolves once what was written to the stream is out, or at once when its reader is gone. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.errored || stream.destroyed) return resolve();
    stream.write('', () => resolve());
  });
}
