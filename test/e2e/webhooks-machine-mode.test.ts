// Machine mode (CLI.md "machine mode", "errors") for failures that once ended
// without the error object, through bin/email: `webhooks trigger` and `replay`
// whose requests were not accepted (exit 1 or 3 after a notice alone), and
// --jq past jq's memory, which wrote a raw `Aborted()` line and said `usage`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { machineLines, spawnCli } from '../helpers/cli.js';
import { useCleanups } from '../helpers/cleanups.js';
import { tempDir } from '../helpers/import-files.js';
import { startScriptedReceiver } from '../helpers/webhooks.js';

const cleanups = useCleanups();
// Nothing listens on port 1 of loopback: connection refused.
const NOBODY = 'http://127.0.0.1:1/';

function lastError(stderr: string) {
  const lines = machineLines(stderr);
  return lines.at(-1)!;
}

let savedFile: string;
beforeAll(() => {
  savedFile = join(tempDir(), 'delivery.json');
  writeFileSync(savedFile, JSON.stringify({ Events: [{ Type: 'Subscribe', Date: '2025-01-01 00:00:00', EmailAddress: 'a@example.com', Name: 'A', CustomFields: [] }], ListID: '11111111-1111-4111-8111-111111111111' }));
});

describe('webhooks trigger and replay end a failure with the error object (issue 27.11)', () => {
  it.each([
    ['trigger', () => ['webhooks', 'trigger', '--to', NOBODY, '--json']],
    ['replay', () => ['webhooks', 'replay', savedFile, '--to', NOBODY, '--json']],
  ])('%s to a port nobody listens on: exit 1, kind network, after the notice', async (_name, argv) => {
    const result = await spawnCli(argv());
    expect(result.code).toBe(1);
    const lines = machineLines(result.stderr);
    expect(lines.at(-2)).toMatchObject({ type: 'notice', message: expect.stringMatching(/0 accepted, 1 not accepted$/) });
    expect(lines.at(-1)).toMatchObject({ type: 'error', error: { kind: 'network', status: null } });
    expect(lines.at(-1)!.error!.message).toMatch(/^no request was accepted by http:\/\/127\.0\.0\.1:1\/: connection refused$/);
  });

  it('trigger to a receiver answering 500: exit 1, kind service', async () => {
    const receiver = await startScriptedReceiver(cleanups);
    receiver.respondWith(500);
    const result = await spawnCli(['webhooks', 'trigger', '--to', receiver.url, '--count', '2', '--batch-size', '1', '--json']);
    expect(result.code).toBe(1);
    expect(lastError(result.stderr)).toMatchObject({ type: 'error', error: { kind: 'service', status: 500 } });
  });

  it('trigger with some requests accepted: exit 3, kind partial', async () => {
    const receiver = await startScriptedReceiver(cleanups);
    receiver.script(200, 503);
    const result = await spawnCli(['webhooks', 'trigger', '--to', receiver.url, '--count', '2', '--batch-size', '1', '-o', 'ndjson']);
    expect(result.code).toBe(3);
    expect(lastError(result.stderr)).toMatchObject({ type: 'error', error: { kind: 'partial', message: `1 of 2 requests was not accepted by ${receiver.url}` } });
  });

  it('without machine mode the failure is an error line too', async () => {
    const result = await spawnCli(['webhooks', 'trigger', '--to', NOBODY]);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe('error: no request was accepted by http://127.0.0.1:1/: connection refused');
  });
});

describe('--jq past the memory jq has (issue 27.11)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.stop());

  it("--jq '[range(1e8)]' --json: every stderr line is one JSON object, the last the error, kind service, not usage", async () => {
    const result = await spawnCli(['transactional', 'list', '--jq', '[range(1e8)]', '--json'], {
      env: { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey },
      timeoutMs: 120_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/Aborted\(/);
    expect(lastError(result.stderr)).toMatchObject({ type: 'error', error: { kind: 'service', message: expect.stringMatching(/^--jq: jq ran out of memory/) } });
  }, 150_000);
});
