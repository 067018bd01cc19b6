// The one mapping from whatever ended a command to its exit code and the
// words a user sees (CLI.md "Exit codes", "errors"). src/output/error-report.ts
// prints what this decides.
import { CommanderError } from 'commander';
import { errorKind, type ErrorKind } from './error-kind.js';
import { ApiError, AuthError, Cancelled, CliError, ExitCode, RedirectError, UsageError } from './errors.js';

/** What a failed command reports: its exit code, and the error as printed (human or JSON). */
export interface ErrorReport {
  exitCode: number;
  /** The stable word a script branches on (CLI.md "errors"; src/core/error-kind.ts). */
  kind: ErrorKind;
  status?: number;
  /** The message names the status itself (a redirect's `302 Found`): no `(HTTP 302)` after it. */
  statusNamed?: boolean;
  code?: number;
  message: string;
  /** The message is the service's own text: printed as one line, whatever it holds. */
  fromService?: boolean;
  resultData?: unknown;
  hint?: string;
  /** Printed as the message alone, without `error:` (a cancelled prompt: the user's choice, not a failure). */
  plain?: boolean;
  /** The stack of an unexpected error, shown with --debug. */
  stack?: string;
}

/** undefined: nothing to print, exit 0 (help or version shown). */
export function describeError(err: unknown, context: { aborted: boolean; debug: boolean }): ErrorReport | undefined {
  const report = describe(err, context);
  return report && { ...report, kind: errorKind(err, { aborted: context.aborted, exitCode: report.exitCode }) };
}

function describe(err: unknown, context: { aborted: boolean; debug: boolean }): Omit<ErrorReport, 'kind'> | undefined {
  if (err instanceof CommanderError) {
    // A bare group (or bare `email`) shows its help on stderr and exits 0, like gh.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return undefined;
    if (err.code === 'commander.executeSubCommandAsync') return undefined;
    return { exitCode: ExitCode.usage, message: err.message.replace(/^error:\s*/i, '') };
  }
  if (context.aborted && !(err instanceof CliError)) return { exitCode: ExitCode.interrupted, message: 'interrupted' };
  if (err instanceof CliError) {
    const status = err instanceof ApiError && err.status ? err.status : undefined;
    const code = err instanceof ApiError ? err.code : err instanceof UsageError ? err.code : undefined;
    const resultData = err instanceof ApiError ? err.resultData : undefined;
    let hint = err.hint;
    if (!hint && err instanceof AuthError && err.status === 401) {
      hint = 'The key was refused. Check it with `email auth status`, or store a new one with `email auth login`.';
    } else if (!hint && err instanceof AuthError && err.status === 403) {
      hint = 'The account is suspended or out of credits; check it in the web app.';
    }
    const statusNamed = err instanceof RedirectError || undefined;
    const plain = err instanceof Cancelled || undefined;
    return { exitCode: err.exitCode, status, statusNamed, code, message: err.message, fromService: err instanceof ApiError, resultData, hint, plain };
  }
  const message = err instanceof Error ? err.message : String(err);
  return {
    exitCode: ExitCode.failure,
    message: `unexpected internal error: ${message}`,
    hint: context.debug ? undefined : 'Run again with --debug for details.',
    stack: context.debug && err instanceof Error ? err.stack : undefined,
  };
}
