// `bin/email webhooks listen --save` when its folder stops taking files
// mid-run (CLI.md `webhooks listen`: 200 means delivered; "A delivery
// answered 200 is saved"). The folder is replaced by a file, which fails a
// save as root too (a chmod would not): every delivery answered 200 must be
// on disk, and one that could not be saved must get a 5xx, so the service
// sends it again.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/import-files.js';
import { post, waitUntil, within } from '../helpers/webhooks.js';

const LIST = '11111111-1111-4111-8111-111111111111';
let running: RunningCli | undefined;
afterEach(() => {
  running?.child.kill('SIGKILL');
  running = undefined;
});

function delivery(name: string): string {
  return JSON.stringify({ Events: [{ Type: 'Subscribe', Date: '2025-03-04 05:06:07', EmailAddress: `${name}@example.com`, Name: name, CustomFields: [] }], ListID: LIST });
}

describe('webhooks listen --save when the folder stops taking files', () => {
  it('answers 5xx for a delivery it could not save, says so, and has saved every delivery it answered 200', async () => {
    const dir = join(tempDir('email-save-'), 'deliveries');
    running = startCli(['webhooks', 'listen', '--port', '0', '-o', 'ndjson', '--save', dir]);
    const cli = running;
    await waitUntil(() => /Listening on [^\s"]+/.test(cli.output().stderr), 'the listener to start', 20_000);
    const url = /Listening on ([^\s"]+)/.exec(cli.output().stderr)![1]!;

    const answers: { body: string; status: number }[] = [];
    const send = async (name: string) => {
      const body = delivery(name);
      const { status } = await within(10_000, post(url, body, 'application/json'));
      answers.push({ body, status });
      return status;
    };
    expect(await send('first')).toBe(200);
    // The folder goes, and a file takes its name.
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'not a folder');
    const refused = await send('second');
    expect(refused).toBeGreaterThanOrEqual(500);
    expect(refused).toBeLessThan(600);
    // Back again: deliveries are saved and answered 200 once more.
    rmSync(dir);
    mkdirSync(dir);
    expect(await send('third')).toBe(200);

    cli.child.kill('SIGINT');
    expect(await within(20_000, cli.exited, 'the end after SIGINT')).toBe(0);
    const stderr = cli.output().stderr;
    const messages = stderr.trim().split('\n').map((l) => (JSON.parse(l) as { message: string }).message);
    expect(messages.some((m) => /not saved/.test(m) && m.includes(dir)), stderr).toBe(true);
    // Every delivery answered 200 is on disk, the one refused is not (the first was in the folder removed).
    const saved = readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8'));
    expect(saved).toEqual(answers.filter((a, i) => a.status === 200 && i > 0).map((a) => a.body));
    expect(cli.output().stdout.trim().split('\n').map((l) => (JSON.parse(l) as { Name: string }).Name)).toEqual(['first', 'third']);
  }, 60_000);
});
