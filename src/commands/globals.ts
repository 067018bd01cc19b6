// The global options, declared once on the program's root, so commander takes
// them before or after the subcommand; `run` gets them through `ctx.globals`.
import type { GlobalOptions, RunDeps } from '../context.js';
import { OUTPUT_FORMAT_NAMES as OUTPUT_FORMATS } from '../core/profile-defaults.js';
import { choiceOption, numberOption, switchOption, textOption, type Input } from './define.js';

export const GLOBAL_OPTIONS = {
  profile: textOption('--profile', '<name>', 'profile to use (env EMAIL_PROFILE)', { complete: 'profile' }),
  baseUrl: textOption('--base-url', '<url>', 'service base URL, overriding the profile (https:// unless loopback)'),
  insecureHttp: switchOption('--insecure-http', 'allow plain http:// to a non-loopback host'),
  output: choiceOption('--output', '<format>', 'output format', OUTPUT_FORMATS, { short: '-o', default: 'table' }),
  json: switchOption('--json', 'same as --output json'),
  quiet: switchOption('--quiet', 'no progress or decoration: data and errors only', { short: '-q' }),
  debug: switchOption('--debug', 'trace HTTP requests, timings and retry decisions on stderr (the key is always masked)'),
  timeout: numberOption('--timeout', '<seconds>', 'per-request timeout in seconds (imports get a longer default than reads)', { min: 0, exclusiveMin: true }),
  noColor: switchOption('--no-color', 'disable colour (also NO_COLOR)'),
  noPager: switchOption('--no-pager', 'never page output on a terminal (also EMAIL_PAGER=cat)'),
};

export type ParsedGlobals = Input<{}, typeof GLOBAL_OPTIONS>;

/** --json folded into --output, the environment's colour rules applied. */
export function resolveGlobals(all: ParsedGlobals, deps: RunDeps): GlobalOptions {
  const env = deps.env;
  // FORCE_COLOR wins, then NO_COLOR / --no-color, then TTY.
  let color = deps.io.stdoutIsTTY && !all.noColor && env.NO_COLOR === undefined;
  if (env.FORCE_COLOR !== undefined && !all.noColor) color = env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return {
    profile: all.profile,
    baseUrl: all.baseUrl,
    insecureHttp: all.insecureHttp,
    output: all.json ? 'json' : all.output,
    quiet: all.quiet,
    debug: all.debug,
    color,
    pager: !all.noPager,
    timeoutMs: all.timeout === undefined ? undefined : all.timeout * 1000,
  };
}
