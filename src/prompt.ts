// Questions on the terminal: a key without echo, and yes/no. readline in raw mode turns Ctrl-C
// into a key and Ctrl-D into a close, which would leave the question pending for ever; both
// settle it with Cancelled before anything is stored or sent (CLI.md "prompts").
import { Cancelled } from './core/errors.js';
import { neutralize } from './output/sanitize.js';

export interface Prompt {
  secret(question: string): Promise<string>;
  /** False unless the user answers yes. */
  confirm(question: string): Promise<boolean>;
}

export interface PromptStreams {
  input?: NodeJS.ReadableStream;
  /** Stderr by default: stdout carries data only. */
  output?: NodeJS.WritableStream;
  /** A signal from outside (SIGTERM, Ctrl-C before the terminal went raw) cancels the question. */
  signal?: AbortSignal;
}

export function createTerminalPrompt(streams: PromptStreams = {}): Prompt {
  return {
    async secret(question) {
      return (await ask(question, true, streams)).trim();
    },
    async confirm(question) {
      return /^y(es)?$/i.test((await ask(`${question} [y/N] `, false, streams)).trim());
    },
  };
}

async function ask(question: string, mute: boolean, streams: PromptStreams): Promise<string> {
  const { createInterface } = await import('node:readline');
  const input = streams.input ?? process.stdin;
  const output = streams.output ?? process.stderr;
  if (streams.signal?.aborted) throw new Cancelled();
  const rl = createInterface({ input, output, terminal: true });
  let muted = false;
  if (mute) {
    // readline has no no-echo mode; muting its output is the usual way.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
      if (!muted || s.includes('\n')) output.write(muted ? '\n' : s);
    };
  }
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const finish = (answer: string | undefined) => {
      if (settled) return;
      settled = true;
      streams.signal?.removeEventListener('abort', cancel);
      // So that `cancelled` stands on a line of its own.
      if (answer === undefined) output.write('\n');
      rl.close();
      if (answer === undefined) reject(new Cancelled());
      else resolve(answer);
    };
    const cancel = () => finish(undefined);
    rl.on('SIGINT', cancel);
    rl.on('close', cancel);
    streams.signal?.addEventListener('abort', cancel, { once: true });
    rl.question(neutralize(question), (answer) => finish(answer));
    muted = mute;
  });
}
