// The `kind` a script branches on (CLI.md "errors"): one of seven stable
// words, decided from the error alone.
import { describe, expect, it } from 'vitest';
import { errorKind } from '../../src/core/error-kind.js';
import { ApiError, AuthError, Interrupted, NetworkError, PartialFailure, RateLimitError, TimeoutError, UnexpectedResponseError, UsageError } from '../../src/core/errors.js';

const init = { status: 400, message: 'x', method: 'GET', path: '/p' };

describe('errorKind', () => {
  it('names each typed error by what a script would do about it', () => {
    expect(errorKind(new UsageError('bad'))).toBe('usage');
    expect(errorKind(new AuthError({ ...init, status: 401 }))).toBe('auth');
    expect(errorKind(new RateLimitError({ ...init, status: 429 }))).toBe('rate-limit');
    expect(errorKind(new ApiError(init))).toBe('service');
    expect(errorKind(new UnexpectedResponseError('GET', '/p', 'no'))).toBe('service');
    expect(errorKind(new NetworkError('reset', 'GET', '/p'))).toBe('network');
    expect(errorKind(new TimeoutError('GET', '/p', 1000))).toBe('network');
    expect(errorKind(new PartialFailure('some'))).toBe('partial');
    expect(errorKind(new Interrupted())).toBe('interrupted');
  });

  it('an error after Ctrl-C is "interrupted"; anything else unknown is by its exit code', () => {
    expect(errorKind(new Error('aborted'), { aborted: true })).toBe('interrupted');
    expect(errorKind(new Error('boom'))).toBe('service');
    expect(errorKind(undefined, { exitCode: 2 })).toBe('usage');
  });
});
