// The key is masked as a whole token (CLI.md "secrets"): a key that is also a
// piece of a word (`other` in "another") leaves the word alone, and is still
// masked where it stands as itself. Through bin/email against a loopback
// service that answers with the text under test.
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { useCleanups } from '../helpers/cleanups.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const cleanups = useCleanups();
const CAMPAIGN = '33333333-3333-4333-8333-333333333333';

async function answering(message: string) {
  const server = await startScriptedServer();
  cleanups.push(() => server.close());
  server.reply({ status: 400, body: { Code: 1, Message: message } });
  return server;
}

describe('masking a short key (CLI.md "secrets")', () => {
  it('EMAIL_API_KEY=other: a message with "another" keeps its word', async () => {
    const server = await answering('Use another address, or ask the other team');
    const r = await spawnCli(['campaigns', 'summary', CAMPAIGN], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'other' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Use another address');
    expect(r.stderr).not.toMatch(/an\*\*\*/);
    // The key standing as a word of its own is still the key.
    expect(r.stderr).toContain('ask the *** team');
  });

  it('the key inside a URL or after a colon is masked; in JSON errors too', async () => {
    const server = await answering('key other refused (see https://example.com/?key=other&x=1)');
    const r = await spawnCli(['campaigns', 'summary', CAMPAIGN, '--json'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'other' } });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/\bother\b/);
    expect(r.stderr).toContain('key *** refused (see https://example.com/?key=***&x=1)');
  });
});
