// The key never appears in what the tool writes (CLI.md "secrets"), in 2xx
// data too: a service that echoes it inside a resource (here a segment's
// Title) as written, in base64 (standard and URL-safe, with and without
// padding) or cut short at the end, shows `***` on stdout in every format.
// Through bin/email against the sandbox, which answers with what it was given.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { spawnCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const KEY = 'sk-live/Zq3xV9pL2mR7tY4wK8nB1cD6~?';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

/** Every form the service might echo, each a word of the title. */
const FORMS = {
  exact: KEY,
  urlEncoded: encodeURIComponent(KEY),
  base64: b64(KEY),
  base64Unpadded: b64(KEY).replace(/=+$/, ''),
  base64Url: b64url(KEY),
  base64UrlPadded: `${b64url(KEY)}${'='.repeat((4 - (b64url(KEY).length % 4)) % 4)}`,
  cutByOne: KEY.slice(0, -1),
  cutByTen: KEY.slice(0, -10),
};

const s = useSandbox({ apiKey: KEY }, 'all');

async function segmentEchoingTheKey(name: string): Promise<string> {
  const title = `echo ${Object.values(FORMS).join(' , ')} end ${name}`;
  const created = await s.call('POST', `/email/segments/${SEED_LIST_IDS.newsletter}`, { Title: title });
  expect(created.status, created.text).toBe(201);
  return created.body as string;
}

function expectNoKey(text: string): void {
  for (const [name, form] of Object.entries(FORMS)) expect(text, `${name} form of the key`).not.toContain(form);
  // A 20-character prefix of the key is in none of them.
  expect(text).not.toContain(KEY.slice(0, 20));
}

describe('the key echoed in 2xx data (segments get)', () => {
  it('the forms under test differ from one another', () => {
    expect(new Set(Object.values(FORMS)).size).toBe(Object.keys(FORMS).length);
    expect(FORMS.base64).toMatch(/[+/].*=$/);
  });

  const formats: [string, string[]][] = [
    ['table', []],
    ['json', ['-o', 'json']],
    ['ndjson', ['-o', 'ndjson']],
    ['csv', ['-o', 'csv']],
    ['--jq', ['--jq', '.Title']],
  ];
  for (const [name, args] of formats) {
    it(`${name}: every form is masked on stdout, the rest of the text kept`, async () => {
      const id = await segmentEchoingTheKey(name);
      const r = await spawnCli(['segments', 'get', id, ...args], { env: { EMAIL_BASE_URL: s.sandbox.url, EMAIL_API_KEY: KEY } });
      expect(r.code, r.stderr).toBe(0);
      expectNoKey(r.stdout);
      expectNoKey(r.stderr);
      expect(r.stdout).toContain('echo *** , *** , *** , *** , *** , *** , *** , *** end');
      if (name === 'json') expect(JSON.parse(r.stdout).Title).toBe('echo *** , *** , *** , *** , *** , *** , *** , *** end json');
      if (name === 'ndjson') expect(JSON.parse(r.stdout.trim()).Title).toContain('echo ***');
    });
  }
});

describe('the key echoed in an error message', () => {
  it('base64 and cut forms show *** on stderr, human and --json', async () => {
    const { startScriptedServer } = await import('../helpers/scripted-server.js');
    const server = await startScriptedServer();
    try {
      for (const json of [false, true]) {
        server.reply({ status: 400, body: { Code: 1, Message: `refused ${FORMS.base64} and ${FORMS.cutByOne}` } });
        const r = await spawnCli(['segments', 'get', SEED_LIST_IDS.newsletter, ...(json ? ['--json'] : [])], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: KEY } });
        expect(r.code).toBe(1);
        expectNoKey(r.stderr);
        expect(r.stderr).toContain('refused *** and ***');
      }
    } finally {
      await server.close();
    }
  });
});
