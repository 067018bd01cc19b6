// What trigger and replay report: one record per request, yielded as each is answered, and how
// the run ended (CLI.md "webhooks").
import { ApiError, Interrupted, NetworkError, PartialFailure } from '../core/errors.js';
import type { Column } from '../output/table.js';
import { answerExcerpt, isSuccess, type PostOutcome } from './post.js';

export interface SentRequest {
  request?: number;
  file?: string;
  events: number;
  status: number | null;
  elapsedMs: number;
  error?: string;
}

export interface Sent {
  base: { request?: number; file?: string; events: number };
  outcome: PostOutcome;
}

const statusColumn: Column = {
  key: 'status',
  header: 'Status',
  format: (value, record) => (value === null ? `no answer: ${String(record.error ?? '')}` : String(value)),
};

export function requestColumns(first: 'request' | 'file'): Column[] {
  return [
    first === 'request' ? { key: 'request', header: 'Request' } : { key: 'file', header: 'File' },
    { key: 'events', header: 'Events' },
    statusColumn,
    { key: 'elapsedMs', header: 'Time (ms)' },
  ];
}

export class RequestTally {
  accepted = 0;
  refused = 0;
  events = 0;
  /** What the error says of them all. */
  private lastRefused: PostOutcome | undefined;

  constructor(
    private readonly target: string,
    private readonly debug: (line: string) => void,
  ) {}

  async *records(sent: AsyncIterable<Sent>): AsyncGenerator<SentRequest> {
    for await (const { base, outcome } of sent) {
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
      if (excerpt) this.debug(`${base.file ?? `request ${base.request}`}: the receiver answered ${outcome.status}: ${excerpt}`);
      yield record;
    }
  }

  summary(): string {
    const total = this.accepted + this.refused;
    return `${total} request${total === 1 ? '' : 's'} (${this.events} event${this.events === 1 ? '' : 's'}) to ${this.target}: ${this.accepted} accepted${this.refused ? `, ${this.refused} not accepted` : ''}`;
  }

  /** The receiver stands where the service would: exit 3 if some were accepted, else 1; 130 when interrupted. */
  error(aborted: boolean): Error | undefined {
    const { target } = this;
    const total = this.accepted + this.refused;
    if (aborted) return new Interrupted();
    if (this.refused === 0) return undefined;
    if (this.accepted > 0) return new PartialFailure(`${this.refused} of ${total} requests ${this.refused === 1 ? 'was' : 'were'} not accepted by ${target}`);
    const last = this.lastRefused!;
    if (last.status === undefined) return new NetworkError(`no request was accepted by ${target}: ${last.error ?? 'no answer'}`, 'POST', target);
    // The status follows the message where printed: `(HTTP 500)`, and `status` in machine mode.
    return new ApiError({ status: last.status, message: `no request was accepted by ${target}`, method: 'POST', path: target });
  }
}

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
