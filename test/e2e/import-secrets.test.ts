// The key never leaves the tool (CLI.md "secrets"), even when a service or a
// proxy echoes it in the import result's FailureDetails[].Message
// (service-spec.md "Import result"): through the real binary, the row
// messages on stderr, in the failures file and with --json show `***`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/import-files.js';
import { startScriptedServer, type Reply, type ScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk-test-0123456789abcdef-SECRET';
const LIST = '11111111-1111-4111-8111-111111111111';

let server: ScriptedServer;
let dir: string;
beforeEach(async () => {
  server = await startScriptedServer();
  dir = tempDir();
  writeFile(dir, 'people.csv', 'email,name,Consent\na@example.com,A,yes\nb@example.com,B,yes\nc@example.com,C,yes\nd@example.com,D,yes\n');
});
afterEach(async () => {
  await server.close();
});

/** Two batches of two: the first acknowledged with 200, the second with 400 code 210 (ResultData); each refuses one row, echoing the key. */
function scriptEchoes(): void {
  const result = (email: string, message: string) => ({
    TotalUniqueEmailsSubmitted: 2,
    TotalExistingSubscribers: 0,
    TotalNewSubscribers: 1,
    DuplicateEmailsInSubmission: [],
    FailureDetails: [{ EmailAddress: email, Code: 1, Message: message }],
  });
  const replies: Reply[] = [
    { status: 200, body: result('b@example.com', `proxy refused: apikey=${KEY}`) },
    { status: 400, body: { Code: 210, Message: 'Some subscribers were not imported', ResultData: result('d@example.com', `key ${encodeURIComponent(KEY)} is echoed`) } },
  ];
  server.reply(...replies);
}

const run = (...more: string[]) =>
  spawnCli(['subscribers', 'import', 'people.csv', '--list', LIST, '--batch-size', '2', '--concurrency', '1', '--failures', 'failed.csv', ...more], {
    cwd: dir,
    env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: KEY },
  });

describe('a service that echoes the key in its row messages (issue 17.10)', () => {
  it('shows *** on stderr and in the failures file', async () => {
    scriptEchoes();
    const r = await run();
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('line 3: failed (1): proxy refused: apikey=***');
    expect(r.stderr).toContain('line 5: failed (1): key *** is echoed');
    const failures = readFileSync(join(dir, 'failed.csv'), 'utf8');
    expect(failures).toContain('proxy refused: apikey=***');
    expect(failures).toContain('key *** is echoed');
    for (const text of [r.stdout, r.stderr, failures]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(encodeURIComponent(KEY));
    }
  });

  it('shows *** with --json, on stdout and stderr, and in the failures file', async () => {
    scriptEchoes();
    const r = await run('--json');
    expect(r.code, r.stderr).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 4, new: 2, failed: 2 });
    const failures = readFileSync(join(dir, 'failed.csv'), 'utf8');
    expect(failures).toContain('proxy refused: apikey=***');
    for (const text of [r.stdout, r.stderr, failures]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(encodeURIComponent(KEY));
    }
  });
});
