// Typed errors. Every failure a command can meet is one of these; src/cli.ts
// is the one place that maps them to exit codes (CLI.md "Exit codes").

export const ExitCode = {
  ok: 0,
  /** The service or the network refused the operation. */
  failure: 1,
  /** Usage or client-side validation error: nothing was sent. */
  usage: 2,
  /** Partial success: some rows or items failed. */
  partial: 3,
  /** No key, 401, 403. */
  auth: 4,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** What each exit code means, in order: the root help and `email help exit-codes` both print this table. */
export const EXIT_CODE_MEANINGS: readonly (readonly [code: ExitCodeValue, meaning: string])[] = [
  [ExitCode.ok, 'success'],
  [ExitCode.failure, 'the service or the network refused the operation (4xx other than auth, 5xx after retries, timeouts)'],
  [ExitCode.usage, 'usage or client-side validation error: nothing was sent'],
  [ExitCode.partial, 'partial success: some rows or items failed; the rest was done and is reported'],
  [ExitCode.auth, 'authentication or account problem: no key configured, 401, 403'],
  [ExitCode.interrupted, 'interrupted (Ctrl-C); any import journal is saved first'],
];

export abstract class CliError extends Error {
  abstract readonly exitCode: number;
  /** A second line of help shown under the error on stderr. */
  hint?: string;
}

/** Sets the error's hint (the second line under it on stderr) and returns the error, for `throw hinted(new …, '…')`. */
export function hinted<E extends CliError>(error: E, hint: string): E {
  error.hint = hint;
  return error;
}

/** Bad input on our side: nothing was sent. `code` mirrors the service's code when the check is the service's own rule. */
export class UsageError extends CliError {
  readonly exitCode = ExitCode.usage;
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ApiErrorInit {
  status: number;
  code?: number;
  message: string;
  resultData?: unknown;
  method: string;
  path: string;
  /** Milliseconds the service asked us to wait (429). */
  retryAfterMs?: number;
  /** The answer as received, for a command that prints it (`email api`, as `gh api`). */
  answer?: { status: number; headers: Record<string, string | string[] | undefined>; data: unknown };
}

/** The service answered with an error status. */
export class ApiError extends CliError {
  readonly exitCode: number = ExitCode.failure;
  readonly status: number;
  readonly code?: number;
  readonly resultData?: unknown;
  readonly method: string;
  readonly path: string;
  readonly retryAfterMs?: number;
  readonly answer?: ApiErrorInit['answer'];
  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.answer = init.answer;
    this.status = init.status;
    this.code = init.code;
    this.resultData = init.resultData;
    this.method = init.method;
    this.path = init.path;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * A 3xx answer (CLI.md "redirects"): never followed (the key and the body
 * would go where it points) and never success, since what answered is a
 * proxy, an http → https redirect or a wrong base-URL prefix, not the
 * service having done the work. Never retried: the next attempt meets the
 * same redirect. `location` is the Location header as received (or resolved
 * against the request when relative), neutralised only where it is printed.
 */
export class RedirectError extends ApiError {
  constructor(
    init: ApiErrorInit,
    readonly location: string | undefined,
  ) {
    super(init);
    this.name = 'RedirectError';
  }
}

/** 401 or 403 from the service, or no key configured at all. */
export class AuthError extends ApiError {
  override readonly exitCode = ExitCode.auth;
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'AuthError';
  }
}

/** 429 that we gave up waiting on (the retry cap was exceeded). */
export class RateLimitError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'RateLimitError';
  }
}

/** Connection refused, reset, DNS failure: the request may or may not have reached the service. */
export class NetworkError extends CliError {
  readonly exitCode = ExitCode.failure;
  constructor(
    message: string,
    readonly method: string,
    readonly path: string,
    options?: { cause?: unknown },
    /** The failure came before a connection existed: the request cannot have reached the service. */
    readonly neverSent = false,
  ) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

export class TimeoutError extends NetworkError {
  constructor(method: string, path: string, readonly timeoutMs: number) {
    super(`${method} ${path} timed out after ${formatSeconds(timeoutMs)}`, method, path);
    this.name = 'TimeoutError';
  }
}

/** The service answered 2xx with a body that does not fit what the spec says. */
export class UnexpectedResponseError extends CliError {
  readonly exitCode = ExitCode.failure;
  constructor(method: string, path: string, detail: string) {
    super(`unexpected response from ${method} ${path}: ${detail}`);
    this.name = 'UnexpectedResponseError';
  }
}

/**
 * An answer body over the size limit (CLI.md "answer size"). Thrown while the
 * body streams in, so memory stays bounded; never retried, since a second
 * attempt would be as large and cost as much again.
 */
export class AnswerTooLargeError extends CliError {
  readonly exitCode = ExitCode.failure;
  constructor(
    readonly method: string,
    readonly path: string,
    readonly limitBytes: number,
  ) {
    super(`${method} ${path}: the answer is larger than ${formatBytes(limitBytes)}; refusing to read more`);
    this.name = 'AnswerTooLargeError';
  }
}

/** Some items failed and were reported; the rest was done. */
export class PartialFailure extends CliError {
  readonly exitCode = ExitCode.partial;
  constructor(message: string) {
    super(message);
    this.name = 'PartialFailure';
  }
}

/** The exit code alone: what went wrong is in the command's data already (a failed doctor check). */
export class ExitOnly extends CliError {
  constructor(readonly exitCode: number) {
    super('');
    this.name = 'ExitOnly';
  }
}

export class Interrupted extends CliError {
  readonly exitCode = ExitCode.interrupted;
  constructor(message = 'interrupted') {
    super(message);
    this.name = 'Interrupted';
  }
}

/**
 * A prompt answered with Ctrl-C or Ctrl-D (CLI.md "prompts"): nothing was
 * stored or sent. Printed as the one word `cancelled`, not as an error: the
 * user chose to stop.
 */
export class Cancelled extends Interrupted {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)}s`;
}

/** 64 MiB, 1 KiB, 1.5 MiB: binary units, as the limits are written. */
function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The abort reason when the reader of stdout went away; also what writes to it reject with. */
export class BrokenPipe extends Error {
  constructor() {
    super('the reader of standard output went away');
    this.name = 'BrokenPipe';
  }
}

export function isBrokenPipe(value: unknown): value is BrokenPipe {
  return value instanceof BrokenPipe;
}
