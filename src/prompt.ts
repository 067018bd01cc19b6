// Questions asked on the controlling terminal: a key without echo, and yes/no.
// A question may quote the service's text (a campaign's name): neutralised
// like every other line on stderr (CLI.md "untrusted text").
import type { Prompt } from './context.js';
import { neutralize } from './output/sanitize.js';

export function createTerminalPrompt(): Prompt {
  return {
    async secret(question) {
      const { createInterface } = await import('node:readline');
      const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
      let muted = false;
      // readline has no no-echo mode; muting its output is the usual way.
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
        if (!muted || s.includes('\n')) process.stderr.write(muted ? '\n' : s);
      };
      return new Promise<string>((resolve) => {
        rl.question(neutralize(question), (answer) => {
          rl.close();
          resolve(answer.trim());
        });
        muted = true;
      });
    },
    async confirm(question) {
      const { createInterface } = await import('node:readline');
      const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
      return new Promise<boolean>((resolve) => {
        rl.question(`${neutralize(question)} [y/N] `, (answer) => {
          rl.close();
          resolve(/^y(es)?$/i.test(answer.trim()));
        });
      });
    },
  };
}
