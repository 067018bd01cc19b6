// The one object a command receives, and where it is built: its input facts,
// environment, globals, logger, renderer, prompt and lazy API client (a command
// that needs no key never fails for lack of one). Nothing global is touched
// outside src/cli.ts and this file; tests build a Context with injected IO.
import type { Readable } from 'node:stream';
import { UsageError } from './core/errors.js';
import type { HeapHook } from './core/heap.js';
import type { ApiClient } from './core/http.js';
import { InterruptHub } from './core/interrupts.js';
import type { Redactor } from './core/redact.js';
import type { IO } from './output/edges.js';
import { createMessages, isMachineFormat, type MessageFields } from './output/messages.js';
import { countFor } from './output/numbers.js';
import type { ProgressReporter } from './output/progress.js';
import type { createOutput, Output } from './output/render.js';
import type { OutputFormat } from './output/result.js';
import type { Serving } from './output/serving.js';
import type { Prompt } from './prompt.js';

export type { IO, Prompt };
type CreateOutput = typeof createOutput;

/** What a run of the program is given: by main() for the real process, by tests for an in-process run. */
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
  /** Process-wide heap tuning (src/core/heap.ts): main() gives it; in-process tests do not, so their worker's V8 is left alone. */
  heap?: HeapHook;
  /**
   * The process ends as soon as run() returns (main()): connections with no
   * request in flight are left for the exit to close (src/core/http.ts settle()).
   */
  exiting?: boolean;
  /** Called as a command's action starts, before it does any work (main() arms its signals then). */
  onCommandStart?: () => void;
}

/** Options every command has (CLI.md "Global behaviour"). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  insecureHttp: boolean;
  output: OutputFormat;
  quiet: boolean;
  debug: boolean;
  color: boolean;
  /** False with --no-pager (CLI.md "pager"). */
  pager: boolean;
  /** Per-request timeout given with --timeout, in milliseconds. */
  timeoutMs?: number;
}

export interface Logger {
  /** Progress-like chatter and hints: stderr, suppressed by --quiet. */
  info(message: string): void;
  /** Warnings: stderr, always shown. */
  warn(message: string): void;
  /** A notice shown even with --quiet: where a server listens (with --port 0, the only way to learn its port). */
  always(message: string): void;
  /** --debug traces: stderr, only with --debug. Never pass a secret here. */
  debug(message: string): void;
  /**
   * A message of a given type with fields a script may read (a page walk's
   * `page` facts, an import's `progress`): one JSON object in machine mode,
   * its message alone for people; suppressed by --quiet like info()
   * (src/output/messages.ts, docs/scripting.md).
   */
  emit(type: 'notice' | 'progress' | 'wait' | 'page', message: string, fields?: MessageFields): void;
  /** Every stderr line is one JSON object (--json, -o json, -o ndjson: CLI.md "machine mode"). */
  readonly machine: boolean;
  /** How a count reads in a message: digits grouped (5,000) at a terminal only (CLI.md "numbers"). */
  count(n: number): string;
}

/** Standard input as a command's input (a key, a JSON body, CSV rows): the stream, and whether a person types it (a terminal). */
export interface StdinInput {
  readonly stream: Readable;
  readonly isTTY: boolean;
}

export interface Context {
  /** What a command reads as input: the edge's streams are not on the context (test/commands/define.test.ts). */
  stdin: StdinInput;
  /** A question may be asked: the prompt reads stdin and writes stderr, so both must be the terminal. */
  interactive: boolean;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  globals: GlobalOptions;
  /**
   * Aborted at the first Ctrl-C (SIGINT), or when the reader of stdout went
   * away (its reason is then a BrokenPipe, src/output/edges.ts): either way
   * the command stops starting work.
   */
  signal: AbortSignal;
  /**
   * Registers a handler for Ctrl-C; while at least one handler is
   * registered the default behaviour (abort `signal` and exit 130) is replaced by the handlers.
   * Returns a function that unregisters it.
   */
  onInterrupt(handler: (count: number) => void): () => void;
  log: Logger;
  /**
   * Long work's progress on stderr (src/output/progress.ts): a spinner at a
   * terminal, a line every few seconds with `lines` (--progress), `progress`
   * objects in machine mode; nothing with --quiet.
   */
  progress(label: string, options: { lines: boolean }): Promise<ProgressReporter>;
  /** The renderer, for the edge (src/cli.ts): a command returns its data and never reads it, not even for --limit. */
  out: Output;
  prompt: Prompt;
  /**
   * The authenticated client, created on first use; throws AuthError when no key is configured.
   * `connections` sizes its keep-alive pool (core/pool.ts: DEFAULT_CONNECTIONS, or poolFor(concurrency)); the first call decides.
   */
  api(options?: { connections?: number }): Promise<ApiClient>;
  /** A client for explicit credentials (auth login/status, doctor), with the same debug, timeouts and abort; `maxBodyBytes` for a smaller answer cap (completion). */
  apiWith(credentials: { baseUrl: string; apiKey: string }, options?: { maxBodyBytes?: number }): Promise<ApiClient>;
  now(): Date;
  /** Hides every API key in its forms (core/redact.ts), for the service's text a command keeps in a file. */
  maskKeys(text: string): string;
  /** Process-wide heap tuning (src/core/heap.ts), handed to the import and the page walk; undefined in-process (tests). */
  heap?: HeapHook;
  /**
   * The command keeps running once its data is out, until Ctrl-C or SIGTERM,
   * its normal end (a server): the edge then calls stop() (src/output/serving.ts).
   * Its output is never paged, records are drawn as they come, a JSON value is one line.
   */
  serve(serving: Serving): void;
}

export function createContext(
  deps: RunDeps,
  globals: GlobalOptions,
  createOutput: CreateOutput,
  redactor: Redactor,
  onClient: (client: ApiClient) => void,
  onServe: (serving: Serving) => void = () => undefined,
): Context {
  const { io, env } = deps;
  const signal = deps.signal ?? new AbortController().signal;
  const hub = deps.interrupts ?? new InterruptHub();
  // The one writer of stderr messages (src/output/messages.ts): text for people, NDJSON in machine mode.
  const messages = createMessages(io.stderr, isMachineFormat(globals.output), (m) => redactor.redact(m));
  const log: Logger = {
    info: (m) => {
      if (!globals.quiet) messages.emit('notice', m);
    },
    warn: (m) => messages.emit('warning', m),
    always: (m) => messages.emit('notice', m),
    debug: (m) => {
      if (globals.debug) messages.emit('debug', m);
    },
    emit: (type, m, fields) => {
      if (!globals.quiet) messages.emit(type, m, fields);
    },
    machine: messages.machine,
    // Read when a message is made: stderr is built only by a command that writes to it (src/cli.ts main()).
    count: (n) => countFor(io.stderrIsTTY)(n),
  };
  const makeClient = async (baseUrl: string, apiKey: string, connections?: number, baseUrlSource?: string, refusedKeyHint?: string, maxBodyBytes?: number): Promise<ApiClient> => {
    const { ApiClient } = await import('./core/http.js');
    redactor.add(apiKey);
    const client = new ApiClient({
      baseUrl,
      apiKey,
      timeoutMs: globals.timeoutMs,
      debug: globals.debug ? (line) => log.debug(line) : undefined,
      // A long wait is announced (CLI.md "retries"), through the logger: not with --quiet.
      onWait: (line, waitMs) => log.emit('wait', line, { waitMs }),
      signal,
      retry: retryOverrides(env),
      connections,
      baseUrlSource,
      refusedKeyHint,
      maxBodyBytes,
    });
    onClient(client);
    return client;
  };
  let clientPromise: Promise<ApiClient> | undefined;
  const api = (options?: { connections?: number }) =>
    (clientPromise ??= (async () => {
      // The HTTP core loads on the next turn of the event loop: a key already
      // at hand (EMAIL_API_KEY, the file) is resolved before that and loads it
      // itself; a key in the keychain is being read on the thread pool by then
      // (src/core/keychain.ts), and the two overlap.
      setImmediate(() => void import('./core/http.js'));
      const { refusedKeyHint, resolveCredentials } = await import('./core/settings.js');
      const creds = await resolveCredentials({
        env,
        profileFlag: globals.profile,
        baseUrlFlag: globals.baseUrl,
        insecureHttp: globals.insecureHttp,
        signal,
      });
      redactor.add(creds.apiKey);
      const { keySource } = creds;
      const source = keySource.kind === 'env' ? 'env EMAIL_API_KEY' : `profile "${keySource.profile}" (${keySource.store === 'keychain' ? 'in the keychain' : keySource.path})`;
      log.debug(`key from ${source}; base URL ${creds.baseUrl} from ${creds.baseUrlSource}`);
      for (const note of creds.notes) log.debug(note);
      return makeClient(creds.baseUrl, creds.apiKey, options?.connections, creds.baseUrlSource, refusedKeyHint(keySource));
    })());
  const out = createOutput({ format: globals.output, stdout: io.stdout, isTTY: io.stdoutIsTTY, color: globals.color, columns: io.columns, signal, note: log.info });
  return {
    // Getters: Node builds process.stdin and process.stderr when first read,
    // which only a command that reads stdin or asks a question should pay for.
    stdin: {
      get stream() {
        return io.stdin;
      },
      get isTTY() {
        return io.stdinIsTTY;
      },
    },
    get interactive() {
      return io.stdinIsTTY && io.stderrIsTTY;
    },
    env,
    cwd: deps.cwd,
    globals,
    signal,
    onInterrupt: (handler) => hub.register(handler),
    log,
    progress: async (label, { lines }) => {
      const { createProgress, progressMode } = await import('./output/progress.js');
      const mode = progressMode({ stderrIsTTY: io.stderrIsTTY, quiet: globals.quiet, linesRequested: lines, machine: messages.machine });
      const emit = messages.machine ? (message: string, fields: MessageFields) => log.emit('progress', message, fields) : undefined;
      return createProgress(mode, io.stderr, label, undefined, emit, countFor(io.stderrIsTTY));
    },
    out,
    prompt: deps.prompt ?? noPrompt,
    api,
    apiWith: ({ baseUrl, apiKey }, options) => makeClient(baseUrl, apiKey, undefined, undefined, undefined, options?.maxBodyBytes),
    now: deps.now ?? (() => new Date()),
    maskKeys: (text) => redactor.redactKeys(text),
    heap: deps.heap,
    serve: (serving) => {
      out.serving();
      onServe(serving);
    },
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
