// What trigger and replay report: one record per request they send (CLI.md
// "webhooks": "reporting each request's status"), and the exit code of a run.
import type { Context } from '../../context.js';
import { ApiError, ExitCode, Interrupted, NetworkError, PartialFailure } from '../../core/errors.js';
import type { Column, RecordStream } from '../../output/render.js';
import { answerExcerpt, isSuccess, type PostOutcome } from '../../webhooks/post.js';

export interface SentRequest {
  /** 1-based request number (trigger) */
  request?: number;
  /** The replayed file (replay). */
  file?: string;
  events: number;
  /** HTTP status of the receiver's answer; null when there was none. */
  status: number | null;
  elapsedMs: number;
  error?: string;
}

const statusColumn: Column = {
  key: 'status',
  header: 'Status',
  format: (value, record) => (value === null ? `no answer: ${String(record.error ?? '')}` : String(value)),
};

function requestColumns(first: 'request' | 'file'): Column[] {
  return [
    first === 'request' ? { key: 'request', header: 'Request' } : { key: 'file', header: 'File' },
    { key: 'events', header: 'Events' },
    statusColumn,
    { key: 'elapsedMs', header: 'Time (ms)' },
  ];
}

export class RequestReport {
  private readonly stream: RecordStream;
  accepted = 0;
  refused = 0;
  events = 0;
  /** The last request not accepted: what the error says of them all. */
  private lastRefused: PostOutcome | undefined;

  constructor(
    private readonly ctx: Context,
    first: 'request' | 'file',
  ) {
    this.stream = ctx.out.stream({ columns: requestColumns(first) });
  }

  async add(base: { request?: number; file?: string; events: number }, outcome: PostOutcome): Promise<void> {
    const record: SentRequest = { ...base, status: outcome.status ?? null, elapsedMs: outcome.elapsedMs };
    if (outcome.error) record.error = outcome.error;
    if (isSuccess(outcome)) this.accepted++;
    else {
      this.refused++;
      // An answer, whatever its status, says more than a request that got none.
      if (outcome.status !== undefined || this.lastRefused?.status === undefined) this.lastRefused = outcome;
    }
    this.events += base.events;
    const excerpt = answerExcerpt(outcome);
    if (excerpt) this.ctx.log.debug(`${base.file ?? `request ${base.request}`}: the receiver answered ${outcome.status}: ${excerpt}`);
    await this.stream.write(record);
  }

  /**
   * Ends the output and says how it went: 0 all accepted; otherwise the error
   * that ends stderr (CLI.md "machine mode"): `partial` (exit 3) when some
   * were accepted; when none were, `service` if the receiver answered (it
   * stands where the service would) and `network` if it never did (exit 1);
   * 130 when interrupted.
   */
  async finish(target: string): Promise<number> {
    await this.stream.end();
    const total = this.accepted + this.refused;
    this.ctx.log.info(
      `${total} request${total === 1 ? '' : 's'} (${this.events} event${this.events === 1 ? '' : 's'}) to ${target}: ${this.accepted} accepted${this.refused ? `, ${this.refused} not accepted` : ''}`,
    );
    if (this.ctx.signal.aborted) throw new Interrupted();
    if (this.refused === 0) return ExitCode.ok;
    if (this.accepted > 0) throw new PartialFailure(`${this.refused} of ${total} requests ${this.refused === 1 ? 'was' : 'were'} not accepted by ${target}`);
    const last = this.lastRefused!;
    if (last.status === undefined) throw new NetworkError(`no request was accepted by ${target}: ${last.error ?? 'no answer'}`, 'POST', target);
    // The status follows the message where it is printed: `(HTTP 500)`, and `status` in machine mode.
    throw new ApiError({ status: last.status, message: `no request was accepted by ${target}`, method: 'POST', path: target });
  }
}

/** Waits between requests; returns early on Ctrl-C. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
