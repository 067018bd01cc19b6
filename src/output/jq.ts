// --jq: jq itself, compiled to WebAssembly, loaded only when --jq is given. It
// runs in a worker so the main thread stays free to hear signals and a closed
// stdout (an expression may run for ever). With a stream, `.[] | f` runs per
// record as it arrives; any other expression runs once on the gathered list.
import nodeModule from 'node:module';
import { Worker } from 'node:worker_threads';
import { CliError, ExitCode, hinted, UsageError } from '../core/errors.js';
import type { FromJq, JqWorkerData, ToJq } from './jq-protocol.js';
import { JQ_WORKER } from './jq-worker-file.js';

/** The worker's first lines: the compile cache bin/email enabled for this thread is enabled for the worker too. */
function workerEntry(): string {
  const dir = nodeModule.getCompileCacheDir();
  const enable = dir ? `require('node:module').enableCompileCache(${JSON.stringify(dir)});\n` : '';
  return `${enable}require(${JSON.stringify(JQ_WORKER)});\n`;
}

export type JqWrite = (text: string) => Promise<void>;

export interface JqFilter {
  readonly expression: string;
  /** `.[] | f`: may run on any slice of a list, in order, instead of on the whole list. */
  readonly perRecord: boolean;
  run(input: unknown, write: JqWrite, signal?: AbortSignal): Promise<void>;
  gather(): JqGathering;
}

export interface JqGathering {
  add(record: unknown): void;
  run(write: JqWrite, signal?: AbortSignal): Promise<void>;
}

/** Most JSON text gathered for an expression on a walk's whole list: jq holds its input at several times the text's size. */
export const WHOLE_LIST_CHARS = 16 * 1024 * 1024;

const WINDOW = 1024 * 1024;

/** jq failed while running (e.g. `.a.b` on a number): the data was fetched, so not a usage error's exit 2. */
class JqRunError extends CliError {
  readonly exitCode = ExitCode.failure;
  readonly kind = 'usage';
  constructor(message: string) {
    super(message);
    this.name = 'JqRunError';
  }
}

const JQ_HEAP_MIB = 256;

/** A limit reached (jq's heap, WHOLE_LIST_CHARS), not a bad command line: kind `service`, as a retry would meet it again. */
class JqLimitError extends CliError {
  readonly exitCode = ExitCode.failure;
  readonly kind = 'service';
  constructor(message: string) {
    super(message);
    this.name = 'JqLimitError';
  }
}

/** `.[]` or `.[] | …` (but not the update-assignment `.[] |= …`). */
const PER_RECORD = /^\s*\.\[\]\s*(?:\|(?!=)[\s\S]*)?$/;

interface Ended {
  exitCode: number;
  stderr: string;
}

class Engine {
  private readonly worker: Worker;
  private readonly outstanding = new Int32Array(new SharedArrayBuffer(4));
  private current: { message(m: FromJq): void; fail(err: unknown): void } | undefined;
  stopped: Error | undefined;

  constructor() {
    const data: JqWorkerData = { outstanding: this.outstanding.buffer as SharedArrayBuffer, window: WINDOW };
    this.worker = new Worker(workerEntry(), { eval: true, workerData: data });
    // Idle, it must not keep the process alive; a request refs it.
    this.worker.unref();
    this.worker.on('message', (m: FromJq) => this.current?.message(m));
    this.worker.on('error', (err) => this.fail(new JqRunError(`--jq: jq failed: ${err.message}`)));
    this.worker.on('exit', (code) => this.fail(new JqRunError(`--jq: jq's thread ended (exit ${code})`)));
  }

  request(message: ToJq, write?: JqWrite, signal?: AbortSignal): Promise<Ended> {
    if (this.stopped) return Promise.reject(this.stopped);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Ended>((resolve, reject) => {
      let written: Promise<void> = Promise.resolve();
      let over = false;
      const finish = () => {
        over = true;
        signal?.removeEventListener('abort', onAbort);
        this.current = undefined;
        this.worker.unref();
      };
      const fail = (err: unknown) => {
        if (over) return;
        finish();
        // Whatever jq is doing, it is of no more use: a closed stdout, Ctrl-C, SIGTERM.
        this.terminate();
        reject(err);
      };
      const onAbort = () => fail(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.current = {
        message: (m) => {
          if (m.type === 'out') {
            written = written.then(async () => {
              if (over) return;
              try {
                await write?.(m.text);
              } catch (err) {
                fail(err);
                return;
              }
              // Taken by stdout: the worker may post that much more.
              Atomics.sub(this.outstanding, 0, m.text.length);
              Atomics.notify(this.outstanding, 0);
            });
            return;
          }
          void written.then(() => {
            if (over) return;
            finish();
            // An engine that aborted (out of memory) serves no more requests: the next gets a new one.
            if (m.exitCode === -1) this.terminate();
            resolve(m);
          });
        },
        fail,
      };
      this.worker.ref();
      this.worker.postMessage(message);
    });
  }

  private terminate(): void {
    this.stopped ??= new JqRunError('--jq: jq was stopped');
    void this.worker.terminate();
  }

  private fail(err: Error): void {
    this.stopped ??= err;
    this.current?.fail(err);
  }
}

let engine: Engine | undefined;

function started(): Engine {
  if (!engine || engine.stopped) engine = new Engine();
  return engine;
}

/** Compiles `expression`: a malformed one is a usage error, before anything is sent. */
export async function compileJq(expression: string): Promise<JqFilter> {
  const checked = await started().request({ type: 'check', expression });
  if (checked.exitCode === -1) throw new JqRunError(`--jq: ${errorLine(checked.stderr)}`);
  if (checked.exitCode !== 0) throw new UsageError(`--jq: ${errorLine(checked.stderr)}`);
  const runText = async (input: string, write: JqWrite, signal?: AbortSignal) => {
    const ended = await started().request({ type: 'run', expression, input }, write, signal);
    if (ended.exitCode === -1) {
      const outOfMemory = /cannot allocate memory|out of memory|Aborted\(/i.test(ended.stderr);
      throw hinted(
        new JqLimitError(outOfMemory ? `--jq: jq ran out of memory (it has ${JQ_HEAP_MIB} MiB)` : `--jq: jq failed: ${errorLine(ended.stderr)}`),
        'Build less at once: `.[] | …` runs on each record in turn; `limit(n; …)` or --limit n bounds what is built.',
      );
    }
    if (ended.exitCode !== 0) throw new JqRunError(`--jq: ${errorLine(ended.stderr)}`);
  };
  return {
    expression,
    perRecord: PER_RECORD.test(expression),
    run: (input, write, signal) => runText(JSON.stringify(input ?? null), write, signal),
    gather() {
      let parts: string[] = [];
      let chars = 2;
      return {
        add(record) {
          const text = JSON.stringify(record ?? null);
          chars += text.length + 1;
          if (chars > WHOLE_LIST_CHARS) {
            const count = parts.length;
            parts = [];
            // A bound reached, not a bad expression: the kind of the other limits, as for jq's heap.
            throw new JqLimitError(
              `--jq: \`${shown(expression)}\` needs every record at once, and the walk passed ${WHOLE_LIST_CHARS / 1024 / 1024} MiB of them at record ${count + 1}: an expression of the form \`.[] | …\` runs on each record as it comes, or --limit n bounds the walk`,
            );
          }
          parts.push(text);
        },
        run(write, signal) {
          const input = `[${parts.join(',')}]`;
          parts = [];
          return runText(input, write, signal);
        },
      };
    },
  };
}

function shown(expression: string): string {
  const line = expression.replace(/\s+/g, ' ').trim();
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

/** jq's error, from its stderr: the first `jq: error` line (a compile error's first), else its last line. */
function errorLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '');
  const line = lines.find((l) => l.startsWith('jq: error')) ?? lines[lines.length - 1] ?? 'jq failed';
  return line
    .replace(/^jq: error(?: \(at [^)]*\))?:\s*/, '')
    .trim()
    .replace(/:$/, '');
}
