import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/cli.js';
import { useCommandSandbox } from '../helpers/sandbox.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const s = useCommandSandbox();

async function withServer(test: (server: ScriptedServer, env: Record<string, string>) => Promise<void>): Promise<void> {
  const server = await startScriptedServer();
  try {
    await test(server, { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' });
  } finally {
    await server.close();
  }
}

describe('email api, as gh api', () => {
  it('-H adds a request header; Authorization cannot be set there', async () => {
    await withServer(async (server, env) => {
      server.reply({ status: 200, body: [] });
      const r = await runCli(['api', '/email/clients/scheduled', '-H', 'X-Trace: abc', '--header', 'Accept-Language: fr'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(server.calls[0]!.headers['x-trace']).toBe('abc');
      expect(server.calls[0]!.headers['accept-language']).toBe('fr');
      expect(server.calls[0]!.headers.authorization).toBe('Bearer k');
    });
    await s.expectRefused(['api', '/email/clients/scheduled', '-H', 'Authorization: Bearer other'], undefined, /-H cannot set Authorization/);
    await s.expectRefused(['api', '/email/clients/scheduled', '-H', 'no colon'], undefined, /-H takes "Name: value", got "no colon"/);
  });

  it('-i prints the status line and the response headers before the body', async () => {
    await withServer(async (server, env) => {
      server.reply({ status: 200, body: [{ Name: 'A' }], headers: { 'X-RateLimit-Remaining': '9' } });
      const r = await runCli(['api', '/email/clients/scheduled', '-i'], { env });
      expect(r.code, r.stderr).toBe(0);
      const [head, body] = r.stdout.split(/\r?\n\r?\n/);
      expect(head).toMatch(/^HTTP\/1\.1 200 OK\n/);
      expect(head).toMatch(/^x-ratelimit-remaining: 9$/im);
      expect(JSON.parse(body!)).toEqual([{ Name: 'A' }]);
      expect(r.stdout.endsWith(']\n')).toBe(true);
    });
  });

  it('--debug shows the response headers', async () => {
    await withServer(async (server, env) => {
      server.reply({ status: 200, body: [], headers: { 'X-RateLimit-Limit': '10' } });
      const r = await runCli(['api', '/email/clients/scheduled', '--debug'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^\[debug\] < x-ratelimit-limit: 10$/m);
    });
  });

  it('-f and -F build a JSON body (POST by default), -F typed; with -X GET they become the query', async () => {
    const r = await s.emailSent(['api', `/email/subscribers/${SEED_LIST_IDS.newsletter}`, '-f', 'EmailAddress=typed@example.com', '-f', 'Name=007', '-F', 'ConsentToTrack=Yes', '-F', 'Resubscribe=true', '-F', 'CustomFields[]=null']);
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({ method: 'POST', path: `/email/subscribers/${SEED_LIST_IDS.newsletter}` });
    expect(r.sent[0]!.body).toEqual({ EmailAddress: 'typed@example.com', Name: '007', ConsentToTrack: 'Yes', Resubscribe: true, CustomFields: [null] });
    const get = await s.emailSent(['api', '/email/clients/listsforemail', '-X', 'GET', '-f', 'email=ada@example.com']);
    expect(get.sent[0]).toMatchObject({ method: 'GET' });
    expect(get.sent[0]!.query).toMatchObject({ email: 'ada@example.com' });
    const n = await s.emailSent(['api', '/email/x', '-F', 'n=42', '-F', 'f=1.5', '-F', 'off=false', '-F', 'word=yes']);
    expect(n.sent[0]!.body).toEqual({ n: 42, f: 1.5, off: false, word: 'yes' });
    await s.expectRefused(['api', '/email/x', '-f', 'a=1', '-d', '{}'], undefined, /not both/);
    await s.expectRefused(['api', '/email/x', '-f', 'novalue'], undefined, /-f takes key=value, got "novalue"/);
  });

  it('a 4xx prints the answer body on stdout and exits 1, as gh api does', async () => {
    const r = await s.email(['api', `/email/subscribers/${SEED_LIST_IDS.newsletter}`, '-X', 'POST', '-d', '{"EmailAddress": "not an address"}']);
    expect(r.code).toBe(1);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({ Code: expect.any(Number), Message: expect.any(String) });
    expect(r.stderr).toMatch(/^error \d+: /);
  });
});
