// The words for a request that went wrong, shared by the API client and the webhook posts, so the
// same failure reads the same wherever it happens.
import { STATUS_CODES } from 'node:http';

/** A failure with no answer (refused, reset, DNS), from undici's request() or fetch() alike. */
export function describeNetworkError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  // fetch() wraps the socket's error in `cause`; request() throws it, or undici's own (UND_ERR_SOCKET: "other side closed").
  const code = e?.cause?.code ?? e?.code;
  const text = e?.cause?.message || e?.message || String(err);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
      return 'host not found';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return 'connection reset by the server';
    default:
      return code ? `${text} (${code})` : text;
  }
}

/** Failures before a connection existed: the request cannot have reached the other side. */
export function isNotSent(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | undefined;
  const code = e?.cause?.code ?? e?.code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'UND_ERR_CONNECT_TIMEOUT';
}

/** `timed out after 0.2s`: no answer within the request's timeout. */
export function timedOut(timeoutMs: number): string {
  const s = timeoutMs / 1000;
  return `timed out after ${Number.isInteger(s) ? s : s.toFixed(1)}s`;
}

/** `302 Found`: the status with its reason phrase, where HTTP names one. */
export function statusWithReason(status: number): string {
  return `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;
}

/** A 3xx answer, never followed (CLI.md "redirects", `webhooks listen`). */
export function redirectWords(status: number): string {
  return `${statusWithReason(status)}, a redirect (not followed)`;
}
