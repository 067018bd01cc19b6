// The global options (CLI.md "Global behaviour"), declared once. The program
// puts them on its root, where commander recognises them before or after the
// subcommand (`email --json campaigns sent`, `email campaigns sent --json`);
// they reach a command's `run` through `ctx.globals`, never through argv.
import { OUTPUT_FORMAT_NAMES as OUTPUT_FORMATS } from '../core/profile-defaults.js';
import { choiceOption, numberOption, switchOption, textOption } from './define.js';

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
