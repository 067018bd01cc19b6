// Builds the commander tree. Only commander and the group registration files
// load here; every command's code is an `await import()` away, so `--help`
// and `--version` stay fast (ENGINEERING.md habit 10).
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Context } from './context.js';
import { CLI_VERSION } from './core/version.js';
import { register as registerApi } from './commands/api/index.js';
import { register as registerAuth } from './commands/auth/index.js';
import { register as registerCampaigns } from './commands/campaigns/index.js';
import { register as registerCompletion } from './commands/completion/index.js';
import { register as registerCustomFields } from './commands/customfields/index.js';
import { register as registerDoctor } from './commands/doctor/index.js';
import { register as registerSandbox } from './commands/sandbox/index.js';
import { register as registerSegments } from './commands/segments/index.js';
import { register as registerSubscribers } from './commands/subscribers/index.js';
import { register as registerTemplates } from './commands/templates/index.js';
import { register as registerTransactional } from './commands/transactional/index.js';
import { register as registerWebhooks } from './commands/webhooks/index.js';

export interface CommandModule {
  run(opts: Record<string, unknown>, ctx: Context, args: string[]): Promise<number | void>;
}

/** Wraps a lazily loaded command module into a commander action. */
export type Lazy = (loader: () => Promise<CommandModule>) => (...actionArgs: unknown[]) => Promise<void>;

export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    the service or the network refused the operation (4xx other than auth, 5xx after retries, timeouts)
  2    usage or client-side validation error: nothing was sent
  3    partial success: some rows or items failed; the rest was done and is reported
  4    authentication or account problem: no key configured, 401, 403
  130  interrupted (Ctrl-C); any import journal is saved first
`;

/** Help text block with gh-style examples. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

export function parseIntOption(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`${name} must be a whole number, got "${value}"`);
    const n = Number(value);
    if (n < min || n > max) {
      throw new InvalidArgumentError(`${name} must be ${max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`}, got ${n}`);
    }
    return n;
  };
}

export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Keys of the global options as commander stores them (camelCase). */
export const GLOBAL_OPTION_KEYS = ['profile', 'baseUrl', 'insecureHttp', 'output', 'json', 'quiet', 'debug', 'timeout', 'color'] as const;

function parseTimeout(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`--timeout must be a positive number of seconds, got "${v}"`);
  return n;
}

/**
 * The global options (CLI.md "Global behaviour"), created afresh for each
 * command that carries them: the program (before a subcommand) and every leaf
 * command (after it), so `email --json campaigns sent` and `email campaigns
 * sent --json` both work while a leaf may reuse a short flag (`api -q`).
 */
function globalOptions(omitShort: string[] = []): Option[] {
  const short = (flag: string, long: string) => (omitShort.includes(flag) ? long : `${flag}, ${long}`);
  return [
    new Option('--profile <name>', 'profile to use (env EMAIL_PROFILE)'),
    new Option('--base-url <url>', 'service base URL, overriding the profile (https:// unless loopback)'),
    new Option('--insecure-http', 'allow plain http:// to a non-loopback host'),
    new Option(`${short('-o', '--output')} <format>`, 'output format').choices(['table', 'json', 'ndjson', 'csv']),
    new Option('--json', 'same as --output json'),
    new Option(short('-q', '--quiet'), 'no progress or decoration: data and errors only'),
    new Option('--debug', 'trace HTTP requests, timings and retry decisions on stderr (the key is always masked)'),
    new Option('--timeout <seconds>', 'per-request timeout in seconds (imports get a longer default than reads)').argParser(parseTimeout),
    new Option('--no-color', 'disable colour (also NO_COLOR)'),
  ];
}

/** Adds the global options to a leaf command (once), after the leaf's own; `-o`/`-q` keep only their long form where the leaf uses the letter. */
export function addGlobalOptions(leaf: Command): void {
  if (leaf.options.some((o) => o.long === '--base-url')) return;
  const taken = new Set(leaf.options.map((o) => o.short).filter(Boolean));
  const omit = ['-o', '-q'].filter((f) => taken.has(f));
  for (const option of globalOptions(omit)) leaf.addOption(option.helpGroup('Global options:'));
}

export function buildProgram(lazy: Lazy): Command {
  const program = new Command('email')
    .description('Operate the email-marketing and transactional-email service from the terminal and CI.')
    .version(CLI_VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      `${examples(
        'email auth login --base-url https://api.example.com',
        'email subscribers import people.csv --list <id>',
        'email campaigns unsubscribes --campaign <id> --all --json | jq length',
        'email sandbox',
      )}${EXIT_CODES_HELP}`,
    );
  for (const option of globalOptions()) program.addOption(option);

  registerAuth(program, lazy);
  registerSubscribers(program, lazy);
  registerCustomFields(program, lazy);
  registerSegments(program, lazy);
  registerCampaigns(program, lazy);
  registerTemplates(program, lazy);
  registerTransactional(program, lazy);
  registerWebhooks(program, lazy);
  registerApi(program, lazy);
  registerSandbox(program, lazy);
  registerDoctor(program, lazy);
  registerCompletion(program, lazy);

  // Leaves get the global options only when they are about to parse (the
  // preSubcommand hook runs before a subcommand reads its arguments): building
  // ~360 options for commands that will not run cost a third of `--help`.
  const addGlobals = (_parent: Command, sub: Command) => {
    for (const leaf of sub.commands.length ? [] : [sub]) addGlobalOptions(leaf);
  };
  program.hook('preSubcommand', addGlobals);
  for (const group of program.commands) {
    // A group called without a subcommand prints its help (commander does
    // so for a group without an action), like gh; an unknown subcommand is
    // named, with a suggestion.
    if (group.commands.length) {
      group.hook('preSubcommand', addGlobals);
    }
  }
  return program;
}
