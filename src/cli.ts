// The program's two entry points: main() for the real process (signals, the
// real streams, exit) and run(argv, deps) → exit code, which tests call
// in-process: parse and check the input, build the context, run the command,
// render its Result, and map whatever ended it to an exit code once.
import type { Command } from 'commander';
import type { AnyCommand, ArgDecl, OptionDecl } from './commands/define.js';
import { GLOBAL_OPTIONS, resolveGlobals, type ParsedGlobals } from './commands/globals.js';
import { loadCommands } from './commands/index.js';
import { createContext, type RunDeps } from './context.js';
import { describeError } from './core/error-exit.js';
import { ExitCode, ExitOnly } from './core/errors.js';
import type { ApiClient } from './core/http.js';
import { exitProcess } from './core/exit-now.js';
import { InterruptHub, OUTPUT_GRACE_MS } from './core/interrupts.js';
import { Redactor } from './core/redact.js';
import { createEdges, isBrokenPipe } from './output/edges.js';
import { descriptorStdout, FdStdout } from './output/fd-stdout.js';
import { printError } from './output/error-report.js';
import { isMachineFormat } from './output/messages.js';
import type { Serving } from './output/serving.js';
import { buildProgram, entryNamed, type ActionFactory } from './program.js';

export type { RunDeps };

const HELP_WIDTH = 80;

export async function run(argv: string[], deps: RunDeps): Promise<number> {
  // Everything below writes through the guarded streams (src/output/edges.ts);
  // the command's signal also stops it when the reader of stdout goes away.
  const redactor = new Redactor();
  redactor.add(deps.env.EMAIL_API_KEY);
  // Keys the command learns later (a profile's) are added to the same redactor, which the edges consult at each write.
  const edges = createEdges(deps.io, deps.signal, (text) => redactor.redactKeys(text));
  const { io } = edges;
  const guarded: RunDeps = { ...deps, io, signal: edges.signal };
  let exitCode: number = ExitCode.ok;
  const clients: ApiClient[] = [];
  /** Set once the command's format (and so stderr's form) is known. */
  let formatDecided = false;

  const action: ActionFactory = (definition) => async (...actionArgs: unknown[]) => {
    deps.onCommandStart?.();
    const command = actionArgs[actionArgs.length - 1] as Command;
    const [{ parseInput, parseOptions, shapeOptions }, { createOutput }, stored] = await Promise.all([
      import('./commands/parse-input.js'),
      import('./output/render.js'),
      // A command that prints no JSON (a completion script, login's messages) has no format, pager or
      // list to take from the profile: the config file is not opened for it.
      definition.records === false ? undefined : import('./commands/stored-defaults.js'),
    ]);
    const globals = resolveGlobals(parseOptions(GLOBAL_OPTIONS, program.opts()) as ParsedGlobals, guarded);
    // The profile's defaults (`email config`), read only for what no flag gave.
    const defaults = stored?.defaultsReader(deps.env, globals.profile, globals.baseUrl);
    const typed = outputGiven(program.opts());
    if (stored && defaults && !typed && command.opts().jq === undefined) globals.output = stored.storedOutput(defaults) ?? globals.output;
    // From here on every stderr line is one JSON object under --json / -o json|ndjson (CLI.md "machine mode");
    // a stored format sets stdout's only, so at a terminal messages stay words.
    if (isMachineFormat(globals.output) && (typed || !io.stderrIsTTY)) edges.machineStderr();
    formatDecided = true;
    const { raw, note } = stored && defaults ? stored.withDefaultList(definition, command.opts(), command.processedArgs, defaults) : { raw: command.opts(), note: undefined };
    const input = parseInput(definition, raw, command.processedArgs);
    const asked = shapeOptions(definition, command.opts(), globals.output);
    const shape = asked && definition.records ? await (await import('./output/shape.js')).resolveShape(asked, definition.records, async (e) => (await import('./output/jq.js')).compileJq(e)) : undefined;
    await edges.usePager({ enabled: globals.pager, env: deps.env, stored: () => (stored && defaults ? stored.storedPager(defaults) : undefined) });
    let serving: Serving | undefined;
    const ctx = createContext(guarded, globals, (o) => createOutput({ ...o, shape }), redactor, (c) => clients.push(c), (s) => (serving = s));
    if (note) ctx.log.emit('notice', note.message, note.fields);
    const result = await definition.run(input, ctx);
    // Commands return data; what each format makes of it is the renderer's decision alone.
    if (serving) {
      const { renderServing } = await import('./output/serving.js');
      await renderServing(ctx.out, result, serving, { signal: ctx.signal, onInterrupt: ctx.onInterrupt, note: ctx.log.info });
    } else await ctx.out.render(result);
    const message = typeof result.message === 'function' ? result.message() : result.message;
    if (message) ctx.log.info(message);
    const error = typeof result.error === 'function' ? result.error() : result.error;
    // The data said what went wrong (a failed check): only the exit code is left to give.
    if (error instanceof ExitOnly) exitCode = error.exitCode;
    else if (error) throw error;
  };

  const program = buildProgram(await loadCommands(entryNamed(argv)), action, undefined, true);
  program.exitOverride();
  // Help is wrapped at 80 columns everywhere, so it reads the same in a
  // terminal, a pipe and a CI log, and bin/email can answer a bare --help
  // from the text the build rendered (dist/help.txt) without loading the program.
  const output = {
    // Help is the definitions' own text, which holds no key: written as bytes, which the key mask passes.
    writeOut: (s: string) => void io.stdout.write(Buffer.from(s)),
    writeErr: (s: string) => void io.stderr.write(s),
    getOutHelpWidth: () => HELP_WIDTH,
    getErrHelpWidth: () => HELP_WIDTH,
    // Help is plain text everywhere (it has no styles of its own).
    getOutHasColors: () => false,
    getErrHasColors: () => false,
    // Commander's own usage errors: one line, exit 2 (printed by printError below).
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
    const { json, output, debug, profile, baseUrl } = program.opts();
    const context = { aborted: deps.signal?.aborted ?? false, debug: debug === true };
    // An error before the command ran (a bad option): -o ndjson too, and a
    // stored format off a terminal, make stderr NDJSON, ending with the error
    // object (CLI.md "machine mode"). Help and --version, with nothing to report, read no config.
    if (!formatDecided && describeError(err, context)) {
      const format = json === true ? 'json' : (output ?? (io.stderrIsTTY ? undefined : await storedFormat(deps.env, profile, baseUrl)));
      if (isMachineFormat(String(format ?? '').toLowerCase())) edges.machineStderr();
    }
    // What stdout holds for the pager comes before the error line, as it was written.
    await edges.finish();
    // The reader of stdout went away: whatever that made fail, the command
    // ends quietly with 0, as `head` expects (CLI.md "broken pipe").
    const report = edges.stdoutClosed ? undefined : describeError(err, context);
    if (report) printError(io.stderr, report, { json: edges.machine, redactor });
    exitCode = report?.exitCode ?? ExitCode.ok;
  } finally {
    await Promise.all(clients.map((c) => (deps.exiting ? c.settle() : c.close())));
    await edges.finish();
  }
  return exitCode;
}

/** Whether -o/--output or --json was typed (commander holds no default for them). */
function outputGiven(opts: Record<string, unknown>): boolean {
  return opts.output !== undefined || opts.json === true;
}

/** The profile's stored format, for an error that came before the command ran (a bad option, say). */
async function storedFormat(env: RunDeps['env'], profile: unknown, baseUrl: unknown): Promise<string | undefined> {
  const { defaultsReader, storedOutput } = await import('./commands/stored-defaults.js');
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return storedOutput(defaultsReader(env, text(profile), text(baseUrl)));
}

function* allCommands(cmd: import('commander').Command): Generator<import('commander').Command> {
  for (const sub of cmd.commands) {
    yield sub;
    yield* allCommands(sub);
  }
}

/** The process entry point used by bin/email. */
export async function main(): Promise<void> {
  const controller = new AbortController();
  const interrupts = new InterruptHub();
  // Resolves OUTPUT_GRACE_MS after the first signal: the final flush of an output nobody reads waits no longer.
  let graceOver: () => void = () => undefined;
  const grace = new Promise<void>((resolve) => (graceOver = resolve));
  let graceTimer: NodeJS.Timeout | undefined;
  const interrupt = () => {
    graceTimer ??= setTimeout(graceOver, OUTPUT_GRACE_MS);
    const press = interrupts.fire();
    if (press.handled || press.repeated) return;
    if (press.count > 1) exitProcess(ExitCode.interrupted);
    controller.abort(new Error('interrupted'));
  };
  // SIGTERM (a CI job cancelled, `kill`) gets the same orderly stop as Ctrl-C:
  // journals and sandbox state are saved before the process ends. Armed as a
  // command starts: until then (help, a usage error) a signal ends the
  // process at once, as Node's default, even in a write a full pipe holds.
  const armSignals = () => {
    process.on('SIGINT', interrupt);
    process.on('SIGTERM', interrupt);
    // From here on stdout is written asynchronously, so a signal can always be taken.
    if (stdout instanceof FdStdout) stdout.writeAsynchronously();
  };
  // Writes to a stdout whose reader went away reject with BrokenPipe (src/output/edges.ts).
  // A command may chain writes and await the chain later: such a rejection
  // is not a crash, and run() still ends the command with 0. Any other
  // unhandled rejection keeps Node's behaviour (a crash with its stack).
  process.on('unhandledRejection', (reason) => {
    if (!isBrokenPipe(reason)) throw reason;
  });
  // …nor is its being handled later worth a warning (only a BrokenPipe gets that far).
  process.on('rejectionHandled', () => undefined);
  // A command whose promise never settles would let node run out of work and
  // exit 0, as if it had succeeded: a CI script must see a failure instead.
  let settled = false;
  process.once('beforeExit', () => {
    if (settled) return;
    process.stderr.write('error: the command stopped without finishing (a bug in email; run it again with --debug and report what it printed)\n');
    process.exit(1);
  });
  let stderrOpened = false;
  // Help and usage errors are written to stdout's descriptor (src/output/fd-stdout.ts).
  const stdout = descriptorStdout(() => process.stdout) ?? process.stdout;
  const code = await run(process.argv.slice(2), {
    // Node creates process.stdin and process.stderr when they are first read,
    // a socket for a pipe, a tty for a terminal: only a command that reads
    // stdin or writes to stderr pays (a group's help 4-5 % of its CPU time,
    // bench/README.md; test/cli.test.ts fails when a read builds stderr).
    io: {
      stdout,
      get stderr() {
        stderrOpened = true;
        return process.stderr;
      },
      get stdin() {
        return process.stdin;
      },
      stdoutIsTTY: Boolean(stdout.isTTY),
      get stderrIsTTY() {
        stderrOpened = true;
        return Boolean(process.stderr.isTTY);
      },
      get stdinIsTTY() {
        return Boolean(process.stdin.isTTY);
      },
      columns: stdout.isTTY ? stdout.columns : undefined,
    },
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
    interrupts,
    // The terminal prompt is loaded only by a command that asks something.
    // A signal while a question is up (SIGTERM; Ctrl-C reaches the raw terminal as a key) cancels it.
    prompt: {
      secret: async (question) => (await import('./prompt.js')).createTerminalPrompt({ signal: controller.signal }).secret(question),
      confirm: async (question) => (await import('./prompt.js')).createTerminalPrompt({ signal: controller.signal }).confirm(question),
    },
    heap: () => import('./core/heap.js'),
    exiting: true,
    onCommandStart: armSignals,
  });
  settled = true;
  process.exitCode = code;
  // Once the command is done nothing else may run: exit as soon as stdout and
  // stderr are flushed, rather than linger after undici's pool has closed.
  const stdoutStream = stdout instanceof FdStdout ? stdout.handedOver : stdout;
  if (stdoutStream) await Promise.race([flushed(stdoutStream), grace]);
  if (stderrOpened) await Promise.race([flushed(process.stderr), grace]);
  exitProcess(code);
}

/** Resolves once what was written to the stream is out, or at once when its reader is gone. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.errored || stream.destroyed) return resolve();
    stream.write('', () => resolve());
  });
}
