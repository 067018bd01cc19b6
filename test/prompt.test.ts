// The terminal prompt (src/prompt.ts), driven through streams that behave as
// a terminal's: CLI.md "prompts" — Ctrl-C or Ctrl-D (end of input) cancels,
// never leaves the question hanging (issue 20.6). test/e2e/prompts.test.ts
// does the same on a real pty through bin/email.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Cancelled, ExitCode } from '../src/core/errors.js';
import { createTerminalPrompt } from '../src/prompt.js';

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d) => (shown += String(d)));
  return { input, output, shown: () => shown };
}

/** Waits until the question is on the screen, so keys typed answer it (not a line typed ahead). */
async function asked(t: ReturnType<typeof terminal>, text: string) {
  while (!t.shown().includes(text)) await new Promise((r) => setTimeout(r, 1));
}

describe('terminal prompt', () => {
  it('a yes/no answered y is yes, anything else no', async () => {
    for (const [typed, expected] of [['y\r', true], ['yes\r', true], ['n\r', false], ['\r', false]] as const) {
      const t = terminal();
      const answer = createTerminalPrompt({ input: t.input, output: t.output }).confirm('Go?');
      await asked(t, 'Go? [y/N]');
      t.input.write(typed);
      expect(await answer, JSON.stringify(typed)).toBe(expected);
    }
  });

  for (const [name, key] of [['Ctrl-C', '\x03'], ['Ctrl-D', '\x04']] as const) {
    it(`${name} at a yes/no cancels: Cancelled, exit 130`, async () => {
      const t = terminal();
      const answer = createTerminalPrompt({ input: t.input, output: t.output }).confirm('Unschedule?');
      await asked(t, 'Unschedule?');
      t.input.write(key);
      const err = await answer.then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(Cancelled);
      expect((err as Cancelled).exitCode).toBe(ExitCode.interrupted);
      expect((err as Cancelled).message).toBe('cancelled');
    });

    it(`${name} at the key prompt cancels, and the key typed so far is not kept`, async () => {
      const t = terminal();
      const answer = createTerminalPrompt({ input: t.input, output: t.output }).secret('API key: ');
      await asked(t, 'API key: ');
      t.input.write(name === 'Ctrl-D' ? key : `abc${key}`);
      await expect(answer).rejects.toBeInstanceOf(Cancelled);
      expect(t.shown()).not.toContain('abc');
    });
  }

  it('the end of input (stdin closed) cancels both kinds of question', async () => {
    for (const ask of ['confirm', 'secret'] as const) {
      const t = terminal();
      const answer = createTerminalPrompt({ input: t.input, output: t.output })[ask]('Q?');
      await asked(t, 'Q?');
      t.input.end();
      await expect(answer, ask).rejects.toBeInstanceOf(Cancelled);
    }
  });

  it('a signal while asking (SIGTERM, a second Ctrl-C from outside) cancels', async () => {
    const t = terminal();
    const stop = new AbortController();
    const answer = createTerminalPrompt({ input: t.input, output: t.output, signal: stop.signal }).confirm('Q?');
    await asked(t, 'Q?');
    stop.abort(new Error('interrupted'));
    await expect(answer).rejects.toBeInstanceOf(Cancelled);
  });
});
