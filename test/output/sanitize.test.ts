// CLI.md "untrusted text": a hostile string from the service, a webhook
// sender or a CSV file, fed to each channel that can carry it to a terminal,
// comes out as visible escapes. JSON written to a pipe stays the data unchanged.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { humanStderr, runCli } from '../helpers/cli.js';
import { expectNeutralised, HOSTILE, rawControls } from '../helpers/hostile.js';
import { tempDir, writeFile } from '../helpers/import-files.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { post, startListen } from '../helpers/webhooks.js';
import { fromSpreadsheetSafe, spreadsheetSafe } from '../../src/output/sanitize.js';

const KEY = 'k-untrusted-1234';
let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(() => server.close());

const env = () => ({ EMAIL_BASE_URL: server.url, EMAIL_API_KEY: KEY });

describe('errors from the service reach stderr neutralised', () => {
  it('a coded error (400 {Code, Message})', async () => {
    server.reply({ status: 400, body: { Code: 1, Message: HOSTILE } });
    const r = await runCli(['api', '/email/clients/scheduled'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 1: /);
    expectNeutralised(r.stderr);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('a status error (500 {status, message}) on a request that is not repeated', async () => {
    server.reply({ status: 500, body: { status: 500, message: HOSTILE } });
    const r = await runCli(['api', '/email/things', '-X', 'POST', '-d', '{}'], { env: env() });
    expect(r.code).toBe(1);
    expectNeutralised(r.stderr);
  });

  it('a refused key (401)', async () => {
    server.reply({ status: 401, body: { status: 401, message: HOSTILE } });
    const r = await runCli(['api', '/email/clients/scheduled'], { env: env() });
    expect(r.code).toBe(4);
    expectNeutralised(r.stderr);
    expect(r.stderr).toMatch(/^hint: /m);
  });

  it('an error in JSON mode is one JSON object that keeps the message and escapes the controls', async () => {
    server.reply({ status: 400, body: { Code: 1, Message: HOSTILE } });
    const r = await runCli(['api', '/email/clients/scheduled', '--json'], { env: env() });
    expect(r.code).toBe(1);
    expect(rawControls(r.stderr)).toEqual([]);
    expect(JSON.parse(r.stderr).error.message).toBe(HOSTILE);
  });

  it("in JSON mode the line's own message, for people, shows the controls as visible escapes; error.message keeps the value", async () => {
    server.reply({ status: 400, body: { Code: 1, Message: HOSTILE } });
    const r = await runCli(['api', '/email/clients/scheduled', '--json'], { env: env() });
    const line = JSON.parse(r.stderr) as { message: string; error: { message: string } };
    expectNeutralised(line.message, '');
    expect(line.error.message).toBe(HOSTILE);
  });

  it('a line break in a service message cannot start a line of its own', async () => {
    server.reply({ status: 400, body: { Code: 1, Message: 'bad\nerror 0: all fine' } });
    const r = await runCli(['api', '/email/clients/scheduled'], { env: env() });
    expect(r.stderr).toBe('error 1: bad\\nerror 0: all fine\n');
  });
});

describe('warnings', () => {
  it("auth login's message when the key could not be checked (nothing is stored)", async () => {
    // However many times the check is retried, every attempt answers 500: spare replies, the retries are not counted here.
    for (let i = 0; i < 8; i++) server.spare({ status: 500, body: { status: 500, message: HOSTILE } });
    const r = await runCli(['auth', 'login', '--with-key', '--base-url', server.url], { stdin: 'k-12345678' });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/nothing was stored/);
    expect(r.stderr).toContain('\\x1b');
    expectNeutralised(r.stderr);
  });
});

describe("import's rows not imported", () => {
  let importServer: Server;
  let url: string;
  beforeEach(async () => {
    // Answers every batch with the first subscriber failed, with a hostile message.
    importServer = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const subscribers = (JSON.parse(body) as { Subscribers: { EmailAddress: string }[] }).Subscribers;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          TotalUniqueEmailsSubmitted: subscribers.length,
          TotalExistingSubscribers: 0,
          TotalNewSubscribers: subscribers.length - 1,
          DuplicateEmailsInSubmission: [],
          FailureDetails: [{ EmailAddress: subscribers[0]!.EmailAddress, Code: 1, Message: HOSTILE }],
        }),
      );
    });
    await new Promise<void>((resolve) => importServer.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(importServer.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    importServer.closeAllConnections();
    await new Promise((resolve) => importServer.close(resolve));
  });

  it("a hostile cell and a hostile FailureDetails message", async () => {
    const dir = tempDir();
    // A few control characters among ordinary rows: the file still reads as text (src/import/input.ts).
    const ordinary = Array.from({ length: 100 }, (_, i) => `person${i}@example.com,Person ${i}\n`).join('');
    const file = writeFile(dir, 'people.csv', `email,name\n${ordinary}"${HOSTILE.replace(/"/g, '""')}@example.com",Evil\nbo@example.com,Bo\n`);
    const r = await runCli(['subscribers', 'import', file, '--list', '11111111-1111-4111-8111-111111111111', '--consent', 'yes'], { env: { EMAIL_BASE_URL: url, EMAIL_API_KEY: KEY } });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/Rows not imported:/);
    const lines = r.stderr.split('\n');
    const failed = lines.find((l) => l.includes('line 2'));
    const rejected = lines.find((l) => l.includes('line 102'));
    expectNeutralised(failed ?? '');
    expectNeutralised(rejected ?? '');
    expect(rawControls(r.stderr)).toEqual([]);
  });

  it('a cell with a line break stays on its problem line: it cannot pass for a line of ours', async () => {
    const dir = tempDir();
    const forged = 'x\nline 999: failed (1): forged';
    const file = writeFile(dir, 'people.csv', `email,name\n"${forged}",Evil\nbo@example.com,Bo\n`);
    const r = await runCli(['subscribers', 'import', file, '--list', '11111111-1111-4111-8111-111111111111', '--consent', 'yes'], { env: { EMAIL_BASE_URL: url, EMAIL_API_KEY: KEY } });
    expect(r.stderr).toMatch(/Rows not imported:/);
    expect(r.stderr).not.toMatch(/^line 999/m);
    expect(r.stderr).toMatch(/^ {2}line 2: rejected .*\\n/m);
  });
});

describe('webhooks listen', () => {
  it('the delivery line and the XML parse error line', async () => {
    const l = await startListen(['-o', 'ndjson']);
    const delivery = { Events: [{ Type: 'Subscribe', Date: '2025-03-04 05:06:07', EmailAddress: 'ada@example.com', Name: HOSTILE }], ListID: HOSTILE };
    expect((await post(l.url, JSON.stringify(delivery), 'application/json')).status).toBe(200);
    expect((await post(l.url, '<Webhook><Events\u009b31m\u202egnp.exe></Webhook>', 'application/xml')).status).toBe(400);
    const r = await l.stop();
    expect(r.code).toBe(0);
    // Under -o ndjson stderr is machine mode: one JSON object a line, the sender's
    // text neutralised inside its message (docs/scripting.md).
    const messages = humanStderr(r.stderr).split('\n');
    const deliveryLine = messages.find((line) => line.startsWith('delivery 1:'));
    expect(deliveryLine).toBeDefined();
    // The notice quotes the start of the ListID only (CLI.md `webhooks listen`), escaped.
    expect(rawControls(deliveryLine ?? '', '')).toEqual([]);
    expect(deliveryLine).toMatch(/for list \\x1b\]52;c;.*… \(\d+ characters\)$/);
    const xmlLine = messages.find((line) => line.includes('invalid XML'));
    expect(xmlLine).toContain('\\x9b31m\\u202egnp.exe');
    expect(rawControls(r.stderr)).toEqual([]);
    // stdout is a pipe: the event as received.
    expect(JSON.parse(r.stdout.trim()).Name).toBe(HOSTILE);
  });
});

describe('formats written to a terminal', () => {
  const records = [{ Name: HOSTILE, Note: 'plain' }];

  it('-o csv on a terminal shows visible escapes', async () => {
    server.reply({ status: 200, body: records });
    const r = await runCli(['api', '/email/things', '-o', 'csv'], { env: env(), stdoutIsTTY: true });
    expect(r.code, r.stderr).toBe(0);
    expectNeutralised(r.stdout, '\r\n');
  });

  it.each([['--json'], ['-o', 'ndjson']])('%s on a terminal escapes C1 and bidi controls inside strings and stays valid JSON', async (...flags) => {
    server.reply({ status: 200, body: records });
    const r = await runCli(['api', '/email/things', ...flags], { env: env(), stdoutIsTTY: true });
    expect(r.code, r.stderr).toBe(0);
    expect(rawControls(r.stdout)).toEqual([]);
    expect(r.stdout).toContain('\\u009b31m');
    expect(r.stdout).toContain('\\u202egnp.exe');
    expect(r.stdout).toContain('\\u001b]52;c;');
    const parsed = flags[0] === '--json' ? JSON.parse(r.stdout) : r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(parsed).toEqual(records);
  });

  it('--json and -o csv to a pipe are the data unchanged', async () => {
    server.reply({ status: 200, body: records }, { status: 200, body: records });
    const json = await runCli(['api', '/email/things', '--json'], { env: env() });
    expect(JSON.parse(json.stdout)).toEqual(records);
    expect(json.stdout).toContain('\u009b31m \u202egnp.exe');
    const csv = await runCli(['api', '/email/things', '-o', 'csv'], { env: env() });
    expect(csv.stdout).toBe(`Name,Note\r\n${HOSTILE},plain\r\n`);
  });
});

describe('fromSpreadsheetSafe', () => {
  it('gives back every cell spreadsheetSafe() was given (property), so a failures file imports again unchanged', () => {
    const start = fc.constantFrom('=', '+', '-', '@', "'", '\t', '\r', '\uFF1D', '1', '-1', '+1.5', 'x');
    const cell = fc.oneof(fc.string(), fc.tuple(fc.nat(3), start, fc.string()).map(([quotes, c, rest]) => `${"'".repeat(quotes)}${c}${rest}`));
    fc.assert(fc.property(cell, (value) => fromSpreadsheetSafe(spreadsheetSafe(value)) === value), { numRuns: 2000 });
  });

  it("leaves a cell alone that spreadsheetSafe() did not prefix, an apostrophe of the user's included", () => {
    expect(fromSpreadsheetSafe("'Quoted")).toBe("'Quoted");
    expect(fromSpreadsheetSafe("'+44 20")).toBe('+44 20');
    expect(spreadsheetSafe("'+44 20")).toBe("''+44 20");
    expect(fromSpreadsheetSafe(spreadsheetSafe("''-"))).toBe("''-");
  });
});
