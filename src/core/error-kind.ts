// The `kind` of the JSON error object (CLI.md "errors"): one stable word a
// script can branch on, beside the HTTP status and the service's code. Pure:
// decided from the error alone (and whether the command was interrupted).
import { ApiError, AuthError, CliError, ExitCode, Interrupted, NetworkError, PartialFailure, RateLimitError, UsageError } from './errors.js';

const ERROR_KINDS = ['usage', 'auth', 'service', 'network', 'rate-limit', 'interrupted', 'partial'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export function errorKind(err: unknown, context: { aborted?: boolean; exitCode?: number } = {}): ErrorKind {
  // An error may name its own kind (a jq expression failing on the data: usage, though exit 1).
  const own = err instanceof CliError ? (err as { kind?: unknown }).kind : undefined;
  if (typeof own === 'string' && (ERROR_KINDS as readonly string[]).includes(own)) return own as ErrorKind;
  if (err instanceof Interrupted) return 'interrupted';
  if (err instanceof UsageError) return 'usage';
  // Subclasses first: an AuthError and a RateLimitError are ApiErrors too.
  if (err instanceof AuthError) return 'auth';
  if (err instanceof RateLimitError) return 'rate-limit';
  if (err instanceof ApiError) return 'service';
  if (err instanceof NetworkError) return 'network';
  if (err instanceof PartialFailure) return 'partial';
  if (context.aborted && !(err instanceof CliError)) return 'interrupted';
  // Anything else (commander's usage errors, an unexpected answer, a bug) by its exit code.
  const exitCode = err instanceof CliError ? err.exitCode : (context.exitCode ?? ExitCode.failure);
  switch (exitCode) {
    case ExitCode.usage:
      return 'usage';
    case ExitCode.auth:
      return 'auth';
    case ExitCode.partial:
      return 'partial';
    case ExitCode.interrupted:
      return 'interrupted';
    default:
      return 'service';
  }
}
