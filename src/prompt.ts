// Questions asked on the controlling terminal: a key without echo, and yes/no.
// A question may quote the service's text (a campaign's name): neutralised
// like every other line on stderr (CLI.md "untrusted text").
//
// CLI.md "prompts": Ctrl-C or Ctrl-D (end of input) cancels. readline puts the
// terminal in raw mode, so Ctrl-C reaches it as a key, not as SIGINT, and
// Ctrl-D (or stdin closing) closes it without answering: left alone, either
// would leave the question's promise pending for ever, and the process would
// end through the exit guard in src/cli.ts as a bug. Both settle the question
// with Cancelled (exit 130), before anything is stored or sent.
import { Cancelled } from './core/errors.js';
import { neutralize } from './output/sanitize.js';

export interface Prompt {
  /** Reads a line without echo from the TTY. */
  secret(question: string): Promise<string>;
  /** Yes/no question on the TTY; false unless the user answers yes. */
  confirm(question: string): Promise<boolean>;
}

export interface PromptStreams {
  /** The terminal's input; process.stdin by default. */
  input?: NodeJS.ReadableStream;
  /** Where the question goes; process.stderr by default (stdout carries data only). */
  output?: NodeJS.WritableStream;
  /** Aborted by a signal from outside (SIGTERM, Ctrl-C before the terminal went raw): the question is cancelled. */
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
      // The question's line is ended, so that `cancelled` stands on a line of its own.
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
