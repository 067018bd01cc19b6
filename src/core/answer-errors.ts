// The typed error of an answer that is not 2xx, as the judge of every request makes it: both error
// shapes of the service, and a 3xx named with where it pointed.
import { STATUS_CODES } from 'node:http';
import { ApiError, AuthError, RedirectError } from './errors.js';
import { statusWithReason } from './http-errors.js';

/** A header may be kilobytes long. */
const MAX_LOCATION_SHOWN = 500;

export interface AnswerBody {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: unknown;
}

/** service-spec.md "Errors" has two shapes: {Code, Message[, ResultData]} and {status, message}. */
export function errorForAnswer(method: string, path: string, res: AnswerBody, redact: (text: string) => string): ApiError {
  const body = res.data;
  let code: number | undefined;
  let message: string | undefined;
  let resultData: unknown;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    const rawCode = b.Code ?? b.code;
    if (typeof rawCode === 'number') code = rawCode;
    else if (typeof rawCode === 'string' && /^\d+$/.test(rawCode)) code = Number(rawCode);
    const rawMessage = b.Message ?? b.message;
    if (typeof rawMessage === 'string') message = rawMessage;
    resultData = b.ResultData;
  } else if (typeof body === 'string' && body.trim()) {
    message = body.trim().slice(0, 300);
  }
  const init = {
    status: res.status,
    code,
    // The printer adds the status number (`… (HTTP 404)`), so only its reason phrase here.
    message: redact(message ?? `${method} ${path}: ${STATUS_CODES[res.status] ?? `HTTP ${res.status}`}`),
    resultData,
    method,
    path,
    answer: { status: res.status, headers: res.headers, data: body },
  };
  if (res.status === 401 || res.status === 403) return new AuthError(init);
  return new ApiError(init);
}

/** A relative Location is resolved against the request, so the user sees the host too. */
export function redirectForAnswer(method: string, path: string, requestUrl: string, res: AnswerBody, redact: (text: string) => string): RedirectError {
  let location = header(res.headers, 'location')?.trim() || undefined;
  if (location && !/^[a-z][a-z0-9+.-]*:/i.test(location)) {
    try {
      location = new URL(location, requestUrl).href;
    } catch {
      // Not a URL reference either: shown as received.
    }
  }
  if (location && location.length > MAX_LOCATION_SHOWN) location = `${location.slice(0, MAX_LOCATION_SHOWN)}…`;
  if (location) location = redact(location);
  const where = location ? `, pointing to ${location}` : ', with no Location';
  const status = statusWithReason(res.status);
  const error = new RedirectError(
    {
      status: res.status,
      method,
      path,
      message: `the service answered ${status} to ${method} ${path}${where}: a proxy or a wrong base URL, not a done operation (nothing was followed)`,
    },
    location,
  );
  error.hint = location
    ? 'Check the base URL (`email doctor` shows it and where it came from); if the address above is the service, use it as the base URL.'
    : 'Check the base URL; `email doctor` shows it and where it came from.';
  return error;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
