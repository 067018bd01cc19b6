// Drives the committed completion scripts (completions/) in the real shells:
// bash always; zsh and fish are Debian packages (`apt-get install zsh fish`),
// and their tests are skipped, with a message, where they are not installed.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { COMPLETION_FILES } from '../../src/completion/index.js';

const completionsDir = fileURLToPath(new URL('../../completions/', import.meta.url));
export const scriptPath = (shell: keyof typeof COMPLETION_FILES) => `${completionsDir}${COMPLETION_FILES[shell]}`;

export function installed(shell: string): boolean {
  const found = spawnSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' }).status === 0;
  if (!found) console.warn(`${shell} is not installed (apt-get install ${shell}): its completion tests are skipped`);
  return found;
}

/** A typed line (cursor at its end) and the word completion must produce for the last word. */
export const CASES: [typed: string, completed: string][] = [
  ['email sub', 'subscribers'],
  ['email campaigns unsu', 'unsubscribes'],
  ['email campaigns unsubscribes --page-si', '--page-size'],
  ['email campaigns unsubscribes --order-field na', 'name'],
  ['email campaigns unsubscribes -o nd', 'ndjson'],
  ['email customfields create --type MultiSelectM', 'MultiSelectMany'],
  ['email webhooks trigger --to http://127.0.0.1:3000/h --type Deac', 'Deactivate'],
  ['email completion fi', 'fish'],
  ['email config set ou', 'output'],
  ['email config unset pa', 'pager'],
  // `email help` takes a command path or a topic (issue 35).
  ['email help envi', 'environment'],
  ['email help camp', 'campaigns'],
  ['email help campaigns unsc', 'unschedule'],
];

/** Issue 13.13: profile names are completed from the config (`email __profiles`, the real binary on PATH). */
export const PROFILE_CASES: [typed: string, completed: string[]][] = [
  ['email auth switch st', ['staging']],
  ['email campaigns sent --profile st', ['staging']],
  ['email auth logout --profile ', ['prod', 'staging']],
];

/** A config directory holding the profiles prod and staging, and an environment whose PATH finds bin/email. */
export function profileConfig(): { configDir: string; env: NodeJS.ProcessEnv } {
  const configDir = mkdtempSync(join(tmpdir(), 'email-completion-profiles-'));
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ defaultProfile: 'prod', profiles: { prod: { baseUrl: 'https://a.example.com', apiKey: 'k-11111111' }, staging: { baseUrl: 'https://b.example.com', apiKey: 'k-22222222' } } }), { mode: 0o600 });
  const env = { ...process.env, EMAIL_CONFIG_DIR: configDir, PATH: `${fileURLToPath(new URL('../../bin', import.meta.url))}:${process.env.PATH}` };
  return { configDir, env };
}

/**
 * A config holding one profile whose name is a command substitution that
 * would create `marker` if a shell ever expanded it (issue 33.4): the name
 * must be offered as text and never run.
 */
export function hostileProfileConfig(): { env: NodeJS.ProcessEnv; name: string; marker: string } {
  const { configDir, env } = profileConfig();
  const marker = join(configDir, 'ran');
  const name = `$(touch ${marker})`;
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ defaultProfile: name, profiles: { [name]: { baseUrl: 'https://a.example.com', apiKey: 'k-11111111' } } }), { mode: 0o600 });
  return { env, name, marker };
}

type Env = NodeJS.ProcessEnv;
type ShellRun = [file: string, args: string[]];
const execFileAsync = promisify(execFile);
const outputLines = (out: string) => out.split('\n').filter(Boolean);

function bashRun(typed: string): ShellRun {
  const words = typed.split(' ');
  const script = `source "$1"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE='${typed}'; COMP_POINT=\${#COMP_LINE}; _email; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return ['bash', ['--norc', '-c', script, 'bash', scriptPath('bash')]];
}

/** The words bash's script offers for the last word of a typed line. */
export function bashComplete(typed: string, env?: Env): string[] {
  const [file, args] = bashRun(typed);
  return outputLines(execFileSync(file, args, { encoding: 'utf8', env }));
}

/** As bashComplete(), without blocking this process: a server it runs (the sandbox) can answer the script meanwhile. */
export async function bashCompleteAsync(typed: string, env?: Env): Promise<string[]> {
  const [file, args] = bashRun(typed);
  return outputLines((await execFileAsync(file, args, { encoding: 'utf8', env })).stdout);
}

function fishRun(typed: string): ShellRun {
  return ['fish', ['--no-config', '-c', `source $argv[1]; complete -C "${typed}"`, scriptPath('fish')]];
}

/** What fish offers for a typed line. */
export function fishComplete(typed: string, env?: Env): string[] {
  const [file, args] = fishRun(typed);
  return outputLines(execFileSync(file, args, { encoding: 'utf8', env })).map((l) => l.split('\t')[0]!);
}

/** What fish offers for a typed line, each candidate with a tab and its description where it has one; not blocking this process. */
export async function fishCompleteDescribedAsync(typed: string, env?: Env): Promise<string[]> {
  const [file, args] = fishRun(typed);
  return outputLines((await execFileAsync(file, args, { encoding: 'utf8', env })).stdout);
}

/**
 * Drives an interactive zsh on a pseudo-terminal: a widget bound to ^X runs
 * completion and then accepts the line, and a stub `email` function prints
 * what it got (the scripts call the real binary as `command email`).
 * Returns each line as completed.
 */
function zshRun(lines: string[]): ShellRun {
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
  return ['zsh', ['-f', '-c', harness, 'zsh', ...lines]];
}

const zshLines = (out: string) => outputLines(out).map((l) => `email ${l}`.trimEnd());

export function zshCompleteAll(lines: string[], env?: Env): string[] {
  const [file, args] = zshRun(lines);
  return zshLines(execFileSync(file, args, { encoding: 'utf8', env, timeout: 30_000 }));
}

/** As zshCompleteAll(), without blocking this process. */
export async function zshCompleteAllAsync(lines: string[], env?: Env): Promise<string[]> {
  const [file, args] = zshRun(lines);
  return zshLines((await execFileAsync(file, args, { encoding: 'utf8', env, timeout: 30_000 })).stdout);
}

/**
 * What zsh lists for a typed line (list-choices, as a second TAB shows it):
 * each candidate with its description, `id  -- name`, one a line. Each key
 * waits for the prompt: typed ahead, ^D would reach the terminal's line
 * discipline (end of file), not zle.
 */
export async function zshListAsync(typed: string, env?: Env): Promise<string[]> {
  const harness = `
zmodload zsh/zpty
zpty z 'TERM=dumb zsh -f -i'
zpty -w z "autoload -Uz compinit; compinit -u -D; source ${scriptPath('zsh')}; bindkey -e; bindkey '^D' list-choices; PS1='READ''Y> '"
zpty -r z out '*READY> *'
zpty -w -n z "$1"$'\\x04'
zpty -r z out '*READY> *'
print -r -- "$out"
zpty -d z
`;
  const { stdout } = await execFileAsync('zsh', ['-f', '-c', harness, 'zsh', typed], { encoding: 'utf8', env, timeout: 30_000 });
  return stdout
    .split(/\r?\n|\r/)
    .map((l) => l.trimEnd())
    .filter((l) => / -- /.test(l));
}
