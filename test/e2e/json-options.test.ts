// --jq and --fields on every command that prints JSON (CLI.md `--jq`,
// `--fields`), through bin/email. The whole command tree is walked: each
// command's first example, with --fields naming a field that does not exist,
// must be refused with exit 2 naming the known fields before anything is sent
// (an "unknown option" would be exit 2 too, so the message is what counts).
// Then the commands that print a summary, a check list or a report rather
// than the service's records run against the sandbox with --jq and --fields.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import type { AnyCommand } from '../../src/commands/define.js';
import { SEED_LIST_IDS, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli, startCli, tempConfigDir } from '../helpers/cli.js';
import { useCleanups } from '../helpers/cleanups.js';
import { tempDir, writeFile } from '../helpers/import-files.js';
import { post, startScriptedReceiver, waitUntil } from '../helpers/webhooks.js';

const COMMANDS = await loadCommands();
const cleanups = useCleanups();
const ID = '3f2b8c1e-0a4d-4c6b-9e1f-2a7d5c9b8e41';

/** Every command with its words (`campaigns sent`), as the program lists them; `completion` is added by the program. */
function commandTree(): { path: string; def: AnyCommand }[] {
  const out: { path: string; def: AnyCommand }[] = [];
  for (const entry of COMMANDS) {
    if ('commands' in entry) for (const def of entry.commands) out.push({ path: `${entry.name} ${def.name}`, def });
    else out.push({ path: entry.name, def: entry });
  }
  return out;
}

/** The words of an example after `email`, its placeholders filled (nothing is sent, so any id will do). */
function exampleWords(example: string): string[] {
  const words = (example.split(/\s[|>]/)[0]!.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^["']|["']$/g, ''));
  return words.slice(1).map((w) => w.replaceAll('<id>', ID).replaceAll('<list-id>', ID));
}

/** A service that counts what it is asked and answers every request 404 (never retried). */
async function countingService(): Promise<{ url: string; requests(): number }> {
  let requests = 0;
  const server: Server = createServer((_req, res) => {
    requests++;
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

/** The commands whose output has no JSON at all: a completion script, the ids and profile names it asks for, the login and profile messages. */
const WITHOUT_JSON = ['auth login', 'auth logout', 'auth switch', '__ids', '__profiles', 'completion'];

describe('--jq and --fields on every command that prints JSON', () => {
  it('the commands without them are exactly the ones that print no JSON', () => {
    const without = commandTree()
      .filter(({ def }) => def.records === false)
      .map(({ path }) => path);
    expect(without.sort()).toEqual(WITHOUT_JSON.filter((p) => p !== 'completion').sort());
  });

  it('every command with JSON accepts --jq and --fields, and an unknown field is exit 2 naming the known ones, before anything is sent', async () => {
    const service = await countingService();
    const dir = tempDir();
    const failures: string[] = [];
    const commands = commandTree().filter(({ path }) => !WITHOUT_JSON.includes(path));
    expect(commands.length).toBeGreaterThan(25);
    for (const { path, def } of commands) {
      const argv = [...exampleWords(def.examples[0]!), '--jq', '.', '--fields', 'NoSuchField'];
      const r = await spawnCli(argv, { cwd: dir, env: { EMAIL_BASE_URL: service.url, EMAIL_API_KEY: 'k-12345678', EMAIL_CONFIG_DIR: tempConfigDir() } });
      // `email api` prints any endpoint's answer: it takes any name (and so sends its request).
      if (path === 'api') {
        if (/unknown option/.test(r.stderr)) failures.push(`${path}: ${r.stderr.trim()}`);
        continue;
      }
      // A command that prints one value (a created id) has no fields: refused all the same, saying so.
      const refused = r.code === 2 && /^error: --fields: (unknown field "NoSuchField"; the fields are \w|this command prints one value)/m.test(r.stderr);
      if (!refused) failures.push(`${path}: email ${argv.join(' ')}\n    exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
    // One request: `email api`'s own.
    expect(service.requests()).toBe(1);
  }, 300_000);
});

describe('--jq and --fields on summaries, checks and reports', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let dir: string;
  const LIST = SEED_LIST_IDS.customers;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey, EMAIL_CONFIG_DIR: tempConfigDir() };
    dir = tempDir();
    writeFile(dir, 'people.csv', 'email,name\nada@example.com,Ada\nbo@example.com,Bo\n');
  });
  afterAll(() => sandbox.stop());
  const email = (argv: string[]) => spawnCli(argv, { cwd: dir, env });

  it('subscribers import --json --jq .rows prints a count of the summary', async () => {
    const r = await email(['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes', '--json', '--jq', '.rows']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('2\n');
  });

  it('subscribers import --fields keeps those fields of the summary, in that order', async () => {
    const r = await email(['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes', '--json', '--fields', 'Rows,existing']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ rows: 2, existing: 2 });
    const before = sandbox.requestCount();
    const unknown = await email(['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes', '--fields', 'rows,colour']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: --fields: unknown field "colour"; the fields are rows, new, existing, failed, rejected, duplicates/m);
    expect(sandbox.requestCount()).toBe(before);
  });

  it('subscribers import --dry-run --jq reads the report as --json prints it', async () => {
    const r = await email(['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes', '--dry-run', '--jq', '[.mapping[].column, .wouldSend]']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(['email', 'name', 2]);
  });

  it('doctor --json --jq and auth status --jq filter the checks and the profiles', async () => {
    const doctor = await email(['doctor', '--json', '--jq', '.[] | select(.check == "api key") | .status']);
    expect(doctor.stdout, doctor.stderr).toBe('ok\n');
    const status = await email(['auth', 'status', '--jq', '.[] | select(.inEffect) | .check']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toBe('valid\n');
    const fields = await email(['auth', 'status', '--fields', 'profile,check', '--json']);
    expect(Object.keys(JSON.parse(fields.stdout)[0])).toEqual(['profile', 'check']);
  });

  it('campaigns preview, customfields create and webhooks trigger take --jq', async () => {
    const draft = sandbox.seed.campaigns.find((c) => /draft/i.test(c.Status))!;
    const preview = await email(['campaigns', 'preview', draft.CampaignID, '--to', 'ada@example.com', '--jq', '.PreviewRecipients[0]']);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toBe('ada@example.com\n');
    const field = await email(['customfields', 'create', '--list', LIST, '--name', 'Colour', '--type', 'Text', '--jq', 'type']);
    expect(field.code, field.stderr).toBe(0);
    expect(field.stdout).toBe('string\n');
    const receiver = await startScriptedReceiver(cleanups);
    const trigger = await email(['webhooks', 'trigger', '--to', receiver.url, '--count', '3', '--jq', '.[] | .events']);
    expect(trigger.code, trigger.stderr).toBe(0);
    expect(trigger.stdout).toBe('3\n');
    const fields = await email(['webhooks', 'trigger', '--to', receiver.url, '--fields', 'status', '--json']);
    expect(JSON.parse(fields.stdout)).toEqual([{ status: 200 }]);
  });

  it('webhooks listen --jq filters each event as it arrives; Ctrl-C is still its normal end', async () => {
    const run = startCli(['webhooks', 'listen', '--port', '0', '--jq', '.[] | .EmailAddress'], { env: { EMAIL_CONFIG_DIR: tempConfigDir() } });
    cleanups.push(async () => {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
      await run.exited;
    });
    await waitUntil(() => /Listening on (\S+)/.test(run.output().stderr), 'the listener to start');
    const url = /Listening on (\S+)/.exec(run.output().stderr)![1]!;
    const delivery = { ListID: LIST, Events: [{ Type: 'Subscribe', Date: '2026-11-20 10:00:00', EmailAddress: 'ada@example.com', Name: 'Ada', CustomFields: [] }] };
    expect((await post(url, JSON.stringify(delivery), 'application/json')).status).toBe(200);
    await waitUntil(() => run.output().stdout !== '', 'the event on stdout');
    run.child.kill('SIGINT');
    expect(await run.exited, run.output().stderr).toBe(0);
    expect(run.output().stdout).toBe('ada@example.com\n');
  });
});
