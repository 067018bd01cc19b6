// Every example in every command's --help works against the sandbox (issue
// 6): the `$ email …` lines are collected from the rendered help, `<id>`
// placeholders are filled with the sandbox's seeded ids, and each example
// runs in-process against a fresh sandbox with a documented exit code. The
// part of a line after a pipe or redirect (`| jq length`, `> sent.csv`) is the
// shell's business; the `email …` part before it runs. Examples that cannot
// run here are listed below with the reason.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../src/commands/index.js';
import { buildProgram } from '../src/program.js';
import { startSandbox } from '../src/sandbox/index.js';
import { openConfig } from '../src/core/config.js';
import { runCli } from './helpers/cli.js';
import { startListen, startScriptedReceiver, type ScriptedReceiver } from './helpers/webhooks.js';

/** Examples that cannot run against the sandbox, with why. */
const NOT_RUN: Record<string, string> = {
  'email auth login --base-url https://api.example.com': 'checks the key against a remote host (tests talk to loopback only)',
  'email sandbox': 'starts the sandbox itself on the fixed port 4010 and runs until Ctrl-C',
  'email sandbox --port 0 --json &': 'starts the sandbox itself in the background',
  'email auth login --profile staging --base-url https://staging.example.com': 'checks the key against a remote host (tests talk to loopback only)',
  'email sandbox --webhook 11111111-1111-4111-8111-111111111111=http://127.0.0.1:4020/hooks --webhook-interval 1000 &': 'starts the sandbox itself in the background',
  'email sandbox --port 0 --state sandbox.json --json': 'starts the sandbox itself and runs until Ctrl-C',
  'email sandbox --rate-limit 5 --fail-rate 0.1 --latency 200': 'starts the sandbox itself on the fixed port 4010 and runs until Ctrl-C',
  'email sandbox --webhook 11111111-1111-4111-8111-111111111111=http://127.0.0.1:4020/hooks --webhook-interval 1000':
    'starts the sandbox itself on the fixed port 4010 and runs until Ctrl-C',
};

/** Guide lines whose work is done on stderr or in a file: an empty stdout is what they show. */
const PRINTS_NOTHING = /^email (auth (switch|logout)|config (set|unset)|subscribers import|webhooks (listen|trigger|replay))\b/;

/** Exit codes other than 0 that an example documents. */
const EXPECTED_CODE: [RegExp, number[]][] = [
  // the example file has a row refused before sending: partial success
  [/^email subscribers import /, [0, 3]],
];

/** The user's own receiver in the webhooks examples: a loopback receiver started here. */
const USER_RECEIVER = 'http://localhost:3000/hooks';

interface Example {
  command: string;
  line: string;
}

const ENTRIES = await loadCommands();

function commandPaths(): string[][] {
  const program = buildProgram(ENTRIES, () => async () => undefined);
  const paths: string[][] = [[]];
  const walk = (cmd: typeof program, path: string[]) => {
    // A hidden command (`__profiles`, for completion scripts) has no help to show examples in.
    for (const sub of cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden)) {
      paths.push([...path, sub.name()]);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(program, []);
  return paths;
}

async function collectExamples(): Promise<Example[]> {
  const examples: Example[] = [];
  for (const path of commandPaths()) {
    const help = (await runCli([...path, '--help'])).stdout;
    const block = /\nExamples:\n((?:  .*\n?)+)/.exec(help)?.[1] ?? '';
    const lines = block.split('\n').map((l) => l.trim());
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!;
      if (!line.startsWith('$ ')) continue;
      while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1).trimEnd()} ${lines[++i]!}`;
      line = line.slice(2);
      if (line.startsWith('email ')) examples.push({ command: path.join(' ') || '(root)', line });
    }
  }
  return examples;
}

/** Guides whose `email …` lines in ```sh blocks run here too: the README and every page of docs/ (reference.md is the help's own examples). */
const GUIDES = ['README.md', ...readdirSync(new URL('../docs/', import.meta.url)).filter((f) => f.endsWith('.md') && f !== 'reference.md').map((f) => `docs/${f}`)];

function collectGuideExamples(): Example[] {
  const examples: Example[] = [];
  for (const guide of GUIDES) {
    const text = readFileSync(new URL(`../${guide}`, import.meta.url), 'utf8');
    for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
      for (const raw of block[1]!.split('\n')) {
        const line = raw.trim().replace(/^\$ /, '').replace(/\s+# .*$/, '');
        if (line.startsWith('email ')) examples.push({ command: guide, line });
      }
    }
  }
  return examples;
}

/** POSIX-ish word splitting of the `email …` part of a line: quotes and backslashes; stops at | > < ; &. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (ch === '"') {
      let text = '';
      for (i++; i < line.length && line[i] !== '"'; i++) text += line[i] === '\\' && /["\\$`]/.test(line[i + 1] ?? '') ? line[++i] : line[i];
      word = (word ?? '') + text;
    } else if (ch === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (ch === '#' && word === undefined) {
      // a comment, to the end of the line
      break;
    } else if (ch === '<' && /^<[a-z-]+>/.test(line.slice(i))) {
      // a gh-style placeholder such as <id>, not a redirect
      const placeholder = /^<[a-z-]+>/.exec(line.slice(i))![0];
      word = (word ?? '') + placeholder;
      i += placeholder.length - 1;
    } else if ('|><;&'.includes(ch)) {
      break;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

function expandGlob(word: string, cwd: string): string[] {
  if (!word.includes('*')) return [word];
  const slash = word.lastIndexOf('/');
  const dir = slash >= 0 ? word.slice(0, slash) : '.';
  const pattern = new RegExp(`^${word.slice(slash + 1).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  const matches = readdirSync(join(cwd, dir)).filter((f) => pattern.test(f)).sort();
  return matches.length ? matches.map((f) => (slash >= 0 ? `${dir}/${f}` : f)) : [word];
}

const LIST = '11111111-1111-4111-8111-111111111111';

function writeFixtures(dir: string): void {
  // Two rows to import and one refused before sending: a partial success (exit 3); without a consent
  // column every row would be refused (214) and the import would exit 2, nothing sent.
  writeFileSync(join(dir, 'people.csv'), 'E-mail,Name,Notes,Consent\nada@example.com,Ada Lovelace,first,yes\nnew.reader@example.com,New Reader,,yes\nnot-an-address,Broken Row,bad,yes\n');
  writeFileSync(
    join(dir, 'segment.json'),
    JSON.stringify({ Title: 'From a file', RuleGroups: [{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @example.com' }] }] }),
  );
  writeFileSync(join(dir, 'body.json'), JSON.stringify({ EmailAddress: 'ada@example.com', Name: 'Ada King', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false }));
  mkdirSync(join(dir, 'deliveries'), { recursive: true });
  writeFileSync(
    join(dir, 'deliveries', 'delivery-20250304T050607000Z-000001.json'),
    JSON.stringify({ Events: [{ Type: 'Subscribe', Date: '2025-03-04 05:06:07', EmailAddress: 'ada@example.com', Name: 'Ada', CustomFields: [], SignupIPAddress: 'Manually Entered' }], ListID: LIST }),
  );
}

let receiver: ScriptedReceiver;
let examples: Example[];

beforeAll(async () => {
  receiver = await startScriptedReceiver();
  examples = await collectExamples();
}, 120_000);
afterAll(async () => {
  await receiver.close();
});

describe('help examples', () => {
  it('every command has at least one example, and the list of examples not run names real examples', async () => {
    const all = await collectExamples();
    const withExamples = new Set(all.map((e) => e.command));
    const leaves = commandPaths().filter((p) => p.length > 0 && !commandPaths().some((q) => q.length === p.length + 1 && q.join(' ').startsWith(`${p.join(' ')} `)));
    for (const leaf of leaves) expect(withExamples, leaf.join(' ')).toContain(leaf.join(' '));
    const documented = [...all, ...collectGuideExamples()].map((e) => e.line);
    for (const line of Object.keys(NOT_RUN)) expect(documented, line).toContain(line);
  }, 120_000);

  it('the scripting guide has worked examples of --fields, --jq, --limit, the pager and api --paginate', () => {
    const lines = collectGuideExamples().map((e) => e.line);
    for (const needle of ['--fields', '--jq', '--limit', '--no-pager', '--paginate']) expect(lines.some((l) => l.includes(needle)), needle).toBe(true);
  });

  it('runs every example of the help against the sandbox with a documented exit code', async () => {
    const failures: string[] = [];
    for (const example of examples) {
      if (NOT_RUN[example.line]) continue;
      const failure = await tryExample(example);
      if (failure) failures.push(failure);
    }
    expect(failures, `examples that failed:\n${failures.join('\n')}`).toEqual([]);
  }, 300_000);
});

describe('the README and the guides: every email line of a sh block runs', () => {
  it.each(collectGuideExamples().filter((e) => !NOT_RUN[e.line]).map((e) => [`${e.command}: ${e.line}`, e] as const))('%s', async (_, example) => {
    expect(await tryExample(example)).toBeUndefined();
  });
});

/** Runs an example; what went wrong, or undefined. */
async function tryExample(example: Example): Promise<string | undefined> {
  const outcome = await runExample(example.line);
  const allowed = EXPECTED_CODE.find(([re]) => re.test(example.line))?.[1] ?? [0];
  // A guide's example shows output: an empty answer would show nothing.
  if (GUIDES.includes(example.command) && outcome.code === 0 && outcome.stdout.trim() === '' && !/>/.test(example.line) && !PRINTS_NOTHING.test(example.line)) {
    return `${example.line}\n    ran: email ${outcome.argv.join(' ')}\n    printed nothing`;
  }
  if (!allowed.includes(outcome.code)) {
    return `${example.line}\n    ran: email ${outcome.argv.join(' ')}\n    exit ${outcome.code}: ${outcome.stderr.trim().split('\n').slice(0, 3).join(' | ')}`;
  }
  return undefined;
}

async function runExample(line: string): Promise<{ code: number; stdout: string; stderr: string; argv: string[] }> {
  const sandbox = await startSandbox({ port: 0 });
  try {
    const seed = sandbox.seed;
    const cwd = mkdtempSync(join(tmpdir(), 'email-example-'));
    writeFixtures(cwd);
    const configDir = join(cwd, '.config');
    const store = await openConfig({ EMAIL_CONFIG_DIR: configDir });
    await store.write({ defaultProfile: 'default', profiles: { default: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, defaults: { list: seed.lists[0]!.ListID, listName: seed.lists[0]!.Name } }, staging: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } } });

    const sent = seed.campaigns.find((c) => /sent/i.test(c.Status)) ?? seed.campaigns[0]!;
    const scheduled = seed.campaigns.find((c) => /scheduled/i.test(c.Status)) ?? sent;
    const draft = seed.campaigns.find((c) => /draft/i.test(c.Status)) ?? sent;
    const words = shellWords(line).slice(1);
    const command = words.filter((w) => !w.startsWith('-')).slice(0, 2).join(' ');
    // Engagement segments are system segments (284 on change) and a segment of an unsent draft keeps its rules (272):
    // the examples get an API-created segment no campaign uses.
    const state = sandbox.state() as unknown as { segments: Record<string, { System: unknown }>; campaigns?: Record<string, { SegmentIDs?: string[] }> };
    const used = new Set(Object.values(state.campaigns ?? {}).flatMap((c) => c.SegmentIDs ?? []));
    const segment = seed.segments.find((s) => state.segments[s.SegmentID]?.System === null && !used.has(s.SegmentID))?.SegmentID ?? seed.segments[0]!.SegmentID;
    const campaignFor = command === 'campaigns unschedule' ? scheduled : command === 'campaigns preview' ? draft : sent;
    const argv = words
      .map((w, i) => {
        const flag = words[i - 1];
        let out = w.replaceAll(USER_RECEIVER, receiver.url).replaceAll('<list-id>', seed.lists[0]!.ListID);
        if (out.includes('<id>')) {
          // A flag names the kind of id; a positional id (`email segments get <id>`) is the group's own resource.
          const kind = flag?.startsWith('--') ? flag : flag === 'list' ? '--list' : `--${{ segments: 'segment', transactional: 'smart-email', campaigns: 'campaign' }[words[0] ?? ''] ?? ''}`;
          const id =
            kind === '--list'
              ? seed.lists[0]!.ListID
              : kind === '--segment'
                ? segment
                : kind === '--smart-email'
                  ? seed.smartEmails[0]!.ID
                  : campaignFor.CampaignID;
          out = out.replaceAll('<id>', id);
        }
        return out;
      })
      .flatMap((w) => expandGlob(w, cwd));

    const env = { EMAIL_CONFIG_DIR: configDir, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
    if (argv[0] === 'webhooks' && argv[1] === 'listen') {
      // Runs until Ctrl-C: started on a free port (the later --port wins where the example gives one), then stopped.
      const listen = await startListen(argv.slice(2), { cwd });
      const result = await listen.stop();
      return { code: result.code, stdout: '', stderr: result.stderr, argv };
    }
    // A confirmation the example does not skip with --yes is answered yes at a terminal.
    const asks = /^(campaigns unschedule|segments clear-rules)$/.test(command) && !argv.includes('--yes');
    const result = await runCli(argv, {
      env,
      cwd,
      stdinIsTTY: asks,
      stderrIsTTY: asks,
      prompt: { confirm: async () => true, secret: async () => sandbox.apiKey },
    });
    return { code: result.code, stdout: result.stdout, stderr: result.stderr, argv };
  } finally {
    await sandbox.stop();
  }
}
