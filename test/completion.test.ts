// Completion scripts: generated from the commander tree, committed in
// completions/ (stale files fail here), and loaded in the real shells to
// complete a few words. bash is always there; zsh and fish are Debian
// packages (`apt-get install zsh fish`) and their tests are skipped, with a
// message, where they are not installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMPLETION_FILES, SHELLS } from '../src/completion/index.js';
import { commandReference } from '../src/completion/reference.js';
import { runCli } from './helpers/cli.js';

const completionsDir = fileURLToPath(new URL('../completions/', import.meta.url));
const scriptPath = (shell: keyof typeof COMPLETION_FILES) => `${completionsDir}${COMPLETION_FILES[shell]}`;

function installed(shell: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' }).status === 0;
}

/** A typed line (cursor at its end) and the word completion must produce for the last word. */
const CASES: [typed: string, completed: string][] = [
  ['email sub', 'subscribers'],
  ['email campaigns unsu', 'unsubscribes'],
  ['email campaigns unsubscribes --page-si', '--page-size'],
  ['email campaigns unsubscribes --order-field na', 'name'],
  ['email campaigns unsubscribes -o nd', 'ndjson'],
  ['email customfields create --type MultiSelectM', 'MultiSelectMany'],
  ['email webhooks trigger --to http://127.0.0.1:3000/h --type Deac', 'Deactivate'],
  ['email completion fi', 'fish'],
];

describe('docs/reference.md', () => {
  it('is generated from the command definitions (regenerate: npm run build && node scripts/gen-completions.mjs)', () => {
    expect(readFileSync(fileURLToPath(new URL('../docs/reference.md', import.meta.url)), 'utf8')).toBe(commandReference());
  });

  it('names every command with its summary, arguments, options and examples', () => {
    const doc = commandReference();
    expect(doc).toContain('| [`email campaigns summary`](#email-campaigns-summary) | Show the summary of a sent campaign |');
    expect(doc).toContain('email campaigns summary [campaign]');
    expect(doc).toContain('| `--batch-size <n>` | subscribers per request (1..1000) (default 1000; refused with code 209) |');
    expect(doc).toMatch(/## email completion\n/);
  });
});

describe('completion scripts', () => {
  for (const shell of SHELLS) {
    it(`completions/${COMPLETION_FILES[shell]} is what \`email completion ${shell}\` prints (regenerate: npm run build && node scripts/gen-completions.mjs)`, async () => {
      const r = await runCli(['completion', shell]);
      expect(r.code).toBe(0);
      expect(readFileSync(scriptPath(shell), 'utf8')).toBe(r.stdout);
    });
  }

  it('refuses an unknown shell with exit 2', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/<shell> must be one of bash, zsh, fish \(got "tcsh"\)/);
  });
});

type Env = NodeJS.ProcessEnv;

/** The words bash's script offers for the last word of a typed line. */
function bashComplete(typed: string, env?: Env): string[] {
  const words = typed.split(' ');
  const script = `source "$1"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE='${typed}'; COMP_POINT=\${#COMP_LINE}; _email; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['--norc', '-c', script, 'bash', scriptPath('bash')], { encoding: 'utf8', env }).split('\n').filter(Boolean);
}

/** What fish offers for a typed line. */
function fishComplete(typed: string, env?: Env): string[] {
  return execFileSync('fish', ['--no-config', '-c', `source $argv[1]; complete -C "${typed}"`, scriptPath('fish')], { encoding: 'utf8', env })
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t')[0]!);
}

/**
 * Drives an interactive zsh on a pseudo-terminal: a widget bound to ^X runs
 * completion and then accepts the line, and a stub `email` function prints
 * what it got (the scripts call the real binary as `command email`).
 * Returns each line as completed.
 */
function zshCompleteAll(lines: string[], env?: Env): string[] {
  const harness = `
zmodload zsh/zpty
zpty z 'TERM=dumb zsh -f -i'
zpty -w z 'autoload -Uz compinit; compinit -u -D; source ${scriptPath('zsh')}; email() { print -r -- "\${(U):-ran}:email \$*:END" }; complete-and-run() { zle complete-word; zle accept-line }; zle -N complete-and-run; bindkey "^X" complete-and-run'
for line in "$@"; do
  zpty -w -n z "$line"$'\\x18'
  zpty -r z out '*RAN:email*:END*'
  print -r -- "\${\${out##*RAN:email }%%:END*}"
done
zpty -d z
`;
  const out = execFileSync('zsh', ['-f', '-c', harness, 'zsh', ...lines], { encoding: 'utf8', env, timeout: 30_000 });
  return out.split('\n').filter(Boolean).map((l) => `email ${l}`.trimEnd());
}

describe('bash', () => {
  const complete = (typed: string) => bashComplete(typed);

  it('loads without error and registers _email for email', () => {
    const r = spawnSync('bash', ['--norc', '-c', 'source "$1" && complete -p email', 'bash', scriptPath('bash')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('complete -F _email email');
  });

  for (const [typed, completed] of CASES) {
    it(`completes "${typed}<TAB>" to ${completed}`, () => {
      expect(complete(typed)).toEqual([completed]);
    });
  }

  it('offers every value of an enum flag, and files for a file argument', () => {
    expect(complete('email campaigns sent --output ')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(complete('email campaigns unsubscribes --output = js')).toEqual(['json']);
    const here = fileURLToPath(new URL('.', import.meta.url));
    expect(complete(`email subscribers import ${here}completion.te`)).toEqual([`${here}completion.test.ts`]);
  });

  it('does not take an option value for a subcommand', () => {
    // "--list sent": sent is the value of --list, not `campaigns sent`
    expect(complete('email subscribers history --list sent --em')).toEqual(['--email']);
  });
});

describe.skipIf(!installed('zsh'))('zsh', () => {
  it('loads without error after compinit', () => {
    const r = spawnSync('zsh', ['-f', '-c', `autoload -Uz compinit; compinit -u -D; source ${scriptPath('zsh')}; print -r -- $_comps[email]`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('_email');
  });

  it(`completes ${CASES.map(([t]) => `"${t}<TAB>"`).join(', ')}`, () => {
    const expected = CASES.map(([typed, completed]) => `${typed.slice(0, typed.lastIndexOf(' ') + 1)}${completed}`);
    expect(zshCompleteAll(CASES.map(([typed]) => typed))).toEqual(expected);
  });
});

describe.skipIf(!installed('fish'))('fish', () => {
  const complete = (typed: string) => fishComplete(typed);

  it('loads without error', () => {
    const r = spawnSync('fish', ['--no-config', '-c', 'source $argv[1]', scriptPath('fish')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  for (const [typed, completed] of CASES) {
    it(`completes "${typed}<TAB>" to ${completed}`, () => {
      expect(complete(typed)).toEqual([completed]);
    });
  }
});

if (!installed('zsh')) console.warn('zsh is not installed (apt-get install zsh): its completion tests are skipped');
if (!installed('fish')) console.warn('fish is not installed (apt-get install fish): its completion tests are skipped');

// Issue 13.13: profile names are completed from the config (`email __profiles`, the real binary on PATH).
describe('profile names', () => {
  const configDir = mkdtempSync(join(tmpdir(), 'email-completion-profiles-'));
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ defaultProfile: 'prod', profiles: { prod: { baseUrl: 'https://a.example.com', apiKey: 'k-11111111' }, staging: { baseUrl: 'https://b.example.com', apiKey: 'k-22222222' } } }), { mode: 0o600 });
  const env = { ...process.env, EMAIL_CONFIG_DIR: configDir, PATH: `${fileURLToPath(new URL('../bin', import.meta.url))}:${process.env.PATH}` };
  const PROFILE_CASES: [typed: string, completed: string[]][] = [
    ['email auth switch st', ['staging']],
    ['email campaigns sent --profile st', ['staging']],
    ['email auth logout --profile ', ['prod', 'staging']],
  ];

  it('email __profiles prints the stored profile names, one a line, and nothing for a missing config', async () => {
    expect((await runCli(['__profiles'], { env: { EMAIL_CONFIG_DIR: configDir } })).stdout).toBe('prod\nstaging\n');
    const none = await runCli(['__profiles'], { env: { EMAIL_CONFIG_DIR: join(configDir, 'missing') } });
    expect(none).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect((await runCli(['--help'])).stdout).not.toContain('__profiles');
  });

  it('bash', () => {
    for (const [typed, completed] of PROFILE_CASES) expect(bashComplete(typed, env), typed).toEqual(completed);
  });

  it.skipIf(!installed('fish'))('fish', () => {
    for (const [typed, completed] of PROFILE_CASES) expect(fishComplete(typed, env), typed).toEqual(completed);
  });

  it.skipIf(!installed('zsh'))('zsh', () => {
    expect(zshCompleteAll(['email auth switch st', 'email campaigns sent --profile st'], env)).toEqual(['email auth switch staging', 'email campaigns sent --profile staging']);
  });
});
