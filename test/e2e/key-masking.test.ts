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

describe('the key inside a longer base64 text (CLI.md "secrets", issue 33.6)', () => {
  const KEY = 'sk_live_4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e';
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const basic = b64(`${KEY}:x`);
  const header = b64(`Authorization: Bearer ${KEY}`);

  it('is masked in an error on stderr, text and JSON', async () => {
    for (const json of [false, true]) {
      const server = await answering(`rejected Basic ${basic}; saw ${header}`);
      const r = await spawnCli(['campaigns', 'summary', CAMPAIGN, ...(json ? ['--json'] : [])], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: KEY } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('rejected Basic ***; saw ***');
      expect(r.stderr).not.toContain(basic.slice(8, 30));
      expect(r.stderr).not.toContain(header.slice(32, 54));
    }
  });

  it('is masked in 2xx data on stdout', async () => {
    const server = await startScriptedServer();
    cleanups.push(() => server.close());
    server.reply({ status: 200, body: [{ CampaignID: CAMPAIGN, Name: `Basic ${basic}`, Subject: header }] });
    const r = await spawnCli(['api', '/email/clients/scheduled'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: KEY } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ CampaignID: CAMPAIGN, Name: 'Basic ***', Subject: '***' }]);
  });
});
