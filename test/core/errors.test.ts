// The typed errors and the exit codes they carry (CLI.md "exit codes"), and
// the words of the messages built here.
import { describe, expect, it } from 'vitest';
import {
  AnswerTooLargeError,
  ApiError,
  AuthError,
  ExitCode,
  hinted,
  Interrupted,
  NetworkError,
  PartialFailure,
  RateLimitError,
  RedirectError,
  TimeoutError,
  UnexpectedResponseError,
  UsageError,
} from '../../src/core/errors.js';

const init = { status: 400, code: 212, message: 'No subscribers in batch.', method: 'POST', path: '/email/subscribers/l/import', resultData: { a: 1 }, retryAfterMs: 2000 };

describe('exit codes', () => {
  it('are those of CLI.md: 0 ok, 1 failure, 2 usage, 3 partial, 4 auth, 130 interrupted', () => {
    expect(ExitCode).toEqual({ ok: 0, failure: 1, usage: 2, partial: 3, auth: 4, interrupted: 130 });
  });

  it('each error class carries its own', () => {
    expect(new UsageError('x').exitCode).toBe(2);
    expect(new ApiError(init).exitCode).toBe(1);
    expect(new RedirectError(init, undefined).exitCode).toBe(1);
    expect(new RateLimitError(init).exitCode).toBe(1);
    expect(new AuthError({ ...init, status: 401 }).exitCode).toBe(4);
    expect(new NetworkError('reset', 'GET', '/p').exitCode).toBe(1);
    expect(new TimeoutError('GET', '/p', 1000).exitCode).toBe(1);
    expect(new UnexpectedResponseError('GET', '/p', 'x').exitCode).toBe(1);
    expect(new AnswerTooLargeError('GET', '/p', 1024).exitCode).toBe(1);
    expect(new PartialFailure('some').exitCode).toBe(3);
    expect(new Interrupted().exitCode).toBe(130);
  });
});

describe('ApiError', () => {
  it('keeps everything the service said, and the request it answered', () => {
    const error = new ApiError(init);
    expect(error).toMatchObject({ name: 'ApiError', message: 'No subscribers in batch.', status: 400, code: 212, resultData: { a: 1 }, method: 'POST', path: '/email/subscribers/l/import', retryAfterMs: 2000 });
  });

  it('a redirect is an ApiError keeping its Location; auth and rate-limit ones are ApiErrors', () => {
    const redirect = new RedirectError({ ...init, status: 301 }, 'https://elsewhere.example.com/');
    expect(redirect).toBeInstanceOf(ApiError);
    expect(redirect.location).toBe('https://elsewhere.example.com/');
    expect(new AuthError(init)).toBeInstanceOf(ApiError);
    expect(new RateLimitError(init)).toBeInstanceOf(ApiError);
  });
});

describe('messages', () => {
  it('a timeout names the request and the time in seconds', () => {
    expect(new TimeoutError('GET', '/email/clients/campaigns', 30_000).message).toBe('GET /email/clients/campaigns timed out after 30s');
    expect(new TimeoutError('GET', '/p', 1500).message).toBe('GET /p timed out after 1.5s');
    const timeout = new TimeoutError('GET', '/p', 1500);
    expect(timeout).toBeInstanceOf(NetworkError);
    expect(timeout.neverSent).toBe(false);
  });

  it('an answer too large names the limit in binary units', () => {
    expect(new AnswerTooLargeError('GET', '/p', 64 * 1024 * 1024).message).toBe('GET /p: the answer is larger than 64 MiB; refusing to read more');
    expect(new AnswerTooLargeError('GET', '/p', 1536 * 1024).message).toContain('1.5 MiB');
    expect(new AnswerTooLargeError('GET', '/p', 1000).message).toContain('1000 bytes');
  });

  it('an unexpected response names the request and what was wrong', () => {
    expect(new UnexpectedResponseError('GET', '/p', 'Results[0].Date: expected a date-time, got 17').message).toBe(
      'unexpected response from GET /p: Results[0].Date: expected a date-time, got 17',
    );
  });

  it('a network error keeps its cause and whether the request can have left', () => {
    const cause = new Error('ECONNREFUSED');
    const error = new NetworkError('connection refused', 'GET', '/p', { cause }, true);
    expect(error.cause).toBe(cause);
    expect(error.neverSent).toBe(true);
  });
});

describe('hinted', () => {
  it('sets the second line under the error and returns the same error', () => {
    const error = new UsageError('no base URL');
    expect(hinted(error, 'run email auth login')).toBe(error);
    expect(error.hint).toBe('run email auth login');
  });
});
