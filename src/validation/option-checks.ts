// Client-side checks shared by several command groups. Each throws UsageError with the service's
// own code where the rule is the service's, so a user sees the same code whoever refused.
import { UsageError } from '../core/errors.js';
import { isUuid, isValidEmail } from './email-address.js';

/** Returned as given: the service gets exactly what was typed. */
export function requireText(value: string | undefined, flag: string, code: number | undefined, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`${flag} is required: ${what}`, code);
  return value;
}

/** Identifiers are UUIDs, dashed or as 32 hex digits (CLI.md "identifiers"); returned as given, only trimmed. */
export function checkUuid(value: unknown, flag: string, code?: number): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!isUuid(text)) {
    throw new UsageError(
      `${flag} must be a UUID such as 3f2b8c1e-0a4d-4c6b-9e1f-2a7d5c9b8e41 or 3f2b8c1e0a4d4c6b9e1f2a7d5c9b8e41; got "${String(value ?? '')}"`,
      code,
    );
  }
  return text;
}

/** Trimmed address, or UsageError naming the flag. */
export function checkEmail(value: string, flag: string, code: number): string {
  const text = value.trim();
  if (!isValidEmail(text)) throw new UsageError(`${flag} is not a valid email address: "${value}"`, code);
  return text;
}

/** An absolute http(s) URL with a host: what a service can fetch content from. */
export function isHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

export function checkHttpUrl(value: string, flag: string, code: number): string {
  if (!isHttpUrl(value)) throw new UsageError(`${flag} must be an absolute http:// or https:// URL; got "${value}"`, code);
  return value.trim();
}
