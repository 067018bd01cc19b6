// Typed errors: every failure a command can meet is one of these; src/cli.ts alone maps them to
// exit codes (CLI.md "Exit codes").

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  partial: 3,
  auth: 4,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Printed by the root help and `email help exit-codes`. */
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
  hint?: string;
}

/** For `throw hinted(new …, '…')`. */
export function hinted<E extends CliError>(error: E, hint: string): E {
  error.hint = hint;
  return error;
}

/** Nothing was sent. `code` mirrors the service's code when the rule is the service's own. */
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
  retryAfterMs?: number;
  /** For a command that prints it (`email api`, as `gh api`). */
  answer?: { status: number; headers: Record<string, string | string[] | undefined>; data: unknown };
}

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
 * Never followed (the key and body would go where it points) and never success: what answered
 * is a proxy or a wrong base URL, not the service (CLI.md "redirects"). `location` is neutralised
 * only where it is printed.
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

export class AuthError extends ApiError {
  override readonly exitCode = ExitCode.auth;
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'AuthError';
  }
}

export class RateLimitError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'RateLimitError';
  }
}

export class NetworkError extends CliError {
  readonly exitCode = ExitCode.failure;
  constructor(
    message: string,
    readonly method: string,
    readonly path: string,
    options?: { cause?: unknown },
    /** Before a connection existed: the request cannot have reached the service. */
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

export class UnexpectedResponseError extends CliError {
  readonly exitCode = ExitCode.failure;
  constructor(method: string, path: string, detail: string) {
    super(`unexpected response from ${method} ${path}: ${detail}`);
    this.name = 'UnexpectedResponseError';
  }
}

/** Thrown while the body streams in (CLI.md "answer size"); never retried: a second would be as large. */
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

/** Printed as `cancelled`, not as an error: the user chose to stop (CLI.md "prompts"). */
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
