// One batch's request and what its answer means: acknowledged, failed after
// the HTTP core's retries, or abandoned; and which failures stop the whole import.
import { importBatch, importPath, type ImportFlags } from '../api/subscribers.js';
import { ApiError, AuthError, NetworkError, RedirectError, TimeoutError } from '../core/errors.js';
import type { ApiClient } from '../core/http.js';
import { toInt } from '../schemas/common.js';
import { importResult, type ImportResult } from '../schemas/subscribers.js';
import type { Batch } from './batches.js';
import { JournalError, type BatchRecord } from './journal.js';

type BatchAnswer = { kind: 'acknowledged'; result: ImportResult } | { kind: 'failed'; error: unknown } | { kind: 'abandoned' };

interface SendOptions {
  client: ApiClient;
  listId: string;
  flags: ImportFlags;
  timeoutMs: number;
  /** Aborted: the batch is abandoned (a second Ctrl-C, or an error every batch would meet). */
  signal: AbortSignal;
  onRetry(): void;
}

export async function sendBatch(batch: Batch, o: SendOptions): Promise<BatchAnswer> {
  try {
    const answer = await importBatch(o.client, o.listId, batch.body(o.flags), { timeoutMs: o.timeoutMs, signal: o.signal, onRetry: o.onRetry });
    const parsed = importResult.safeParse(answer.data);
    if (parsed.success) return { kind: 'acknowledged', result: parsed.data };
    return {
      kind: 'failed',
      error: new ApiError({ status: answer.status, message: 'the service answered 200 with a body that is not an import result', method: 'POST', path: importPath(o.listId) }),
    };
  } catch (err) {
    // The outcome is unknown; not journaled, so --resume sends the batch again.
    if (o.signal.aborted) return { kind: 'abandoned' };
    // service-spec.md "Import subscribers": 400 code 210 carries the import result in ResultData.
    const parsed = err instanceof ApiError && err.code === 210 ? importResult.safeParse(err.resultData) : undefined;
    if (parsed?.success) return { kind: 'acknowledged', result: parsed.data };
    return { kind: 'failed', error: err };
  }
}

/**
 * The journal record of an acknowledged batch. The service gives totals, not
 * a per-row split: rows not refused count as new up to TotalNewSubscribers,
 * the rest as existing, so the counts add up. Messages are redacted here,
 * where they enter the import, in case the service echoes the key (CLI.md "secrets").
 */
export function batchRecord(batch: Batch, result: ImportResult, client: Pick<ApiClient, 'redact'>): { record: BatchRecord; emails: string[]; unmatched: number } {
  const failures: [number, string, string][] = [];
  const emails: string[] = [];
  const details = result.FailureDetails ?? [];
  let unmatched = 0;
  if (details.length) {
    const positions = batch.positionsOf(details.map((d) => d.EmailAddress ?? ''));
    details.forEach((detail, k) => {
      const position = positions[k];
      if (position === undefined) {
        unmatched++;
        return;
      }
      failures.push([position, detail.Code === undefined || detail.Code === null ? '' : String(detail.Code), detail.Message ? client.redact(detail.Message) : '']);
      emails.push(detail.EmailAddress ?? '');
    });
  }
  const service: [number, number, number] = [toInt(result.TotalUniqueEmailsSubmitted), toInt(result.TotalExistingSubscribers), toInt(result.TotalNewSubscribers)];
  const accepted = batch.size - failures.length;
  const fresh = Math.min(service[2], accepted);
  return {
    record: { batch: batch.index, rows: batch.size, new: fresh, existing: accepted - fresh, failed: failures.length, retries: batch.retries, service, failures },
    emails,
    unmatched,
  };
}

/** Batch errors that every batch would meet: the import stops at once rather than fail them one by one. */
export function stopsEverything(error: unknown): boolean {
  if (error instanceof AuthError) return true; // 401, 403
  if (error instanceof RedirectError) return true; // a proxy or a wrong base URL answers every batch alike (CLI.md "redirects")
  if (error instanceof ApiError) {
    if (error.status === 404) return true; // the list does not exist
    // service-spec.md "Coded errors by area": batch too large, empty, consent missing or invalid.
    return error.code === 209 || error.code === 212 || error.code === 214 || error.code === 215;
  }
  return error instanceof JournalError;
}

export function errorCode(error: unknown): string {
  if (error instanceof ApiError) return error.code !== undefined ? String(error.code) : `http-${error.status}`;
  if (error instanceof TimeoutError) return 'timeout';
  if (error instanceof NetworkError) return 'network';
  return 'error';
}

/** A service that keeps failing after retries stops the import after this many batches in a row. */
const CONSECUTIVE_FAILURES_LIMIT = 5;

/** Counts transport failures in a row (network, 5xx, 429); any other outcome ends the streak. */
export class FailureStreak {
  private count = 0;

  /** The error that stops the import, once the limit is reached. */
  failed(error: unknown, message: string): Error | undefined {
    const transport = error instanceof NetworkError || (error instanceof ApiError && (error.status >= 500 || error.status === 429));
    if (!transport) {
      this.count = 0;
      return undefined;
    }
    if (++this.count < CONSECUTIVE_FAILURES_LIMIT) return undefined;
    return new RepeatedFailureError(`stopped: ${CONSECUTIVE_FAILURES_LIMIT} batches in a row failed after their retries (last: ${message})`, error);
  }

  acknowledged(): void {
    this.count = 0;
  }
}

/** Exit 1, like the failures it repeats. */
class RepeatedFailureError extends NetworkError {
  constructor(message: string, cause: unknown) {
    super(message, 'POST', '', { cause });
    this.name = 'RepeatedFailure';
  }
}
