// Progress of a long import on stderr, never stdout: a spinner on a terminal,
// plain lines with --progress off one, `progress` objects in machine mode.
import type { Writable } from './writable.js';
import { countFor } from './numbers.js';
import { neutralize } from './sanitize.js';

type Count = (n: number) => string;

export interface ImportProgressView {
  rowsRead: number;
  /** An upper bound: blank lines count. */
  totalRows?: number;
  done?: boolean;
  bytesRead: number;
  totalBytes: number;
  inFlight: number;
  retries: number;
  elapsedMs: number;
}

export interface ProgressReporter {
  update(progress: ImportProgressView): void;
  stop(): void;
}

export type ProgressMode = 'spinner' | 'lines' | 'off';

export const PROGRESS_LINE_INTERVAL_MS = 5_000;

export function progressMode(opts: { stderrIsTTY: boolean; quiet: boolean; linesRequested: boolean; machine?: boolean }): ProgressMode {
  if (opts.quiet) return 'off';
  // A spinner redraws one line with escape sequences: no place in NDJSON.
  if (opts.machine) return opts.stderrIsTTY || opts.linesRequested ? 'lines' : 'off';
  if (opts.stderrIsTTY) return 'spinner';
  return opts.linesRequested ? 'lines' : 'off';
}

export type ProgressEmit = (message: string, fields: Record<string, number | boolean | undefined>) => void;

/** Counts are plain digits unless stderr is a terminal (the spinner is on one, so it groups). */
export async function createProgress(
  mode: ProgressMode,
  stderr: Writable,
  rawLabel: string,
  now: () => number = Date.now,
  emit?: ProgressEmit,
  count: Count = countFor(true),
): Promise<ProgressReporter> {
  if (mode === 'off') return { update: () => undefined, stop: () => undefined };
  // The label names the user's file: neutralised before the spinner decorates it.
  const label = neutralize(rawLabel);
  if (mode === 'lines' && emit) {
    let last = now();
    let unsaid: ImportProgressView | undefined;
    const say = (p: ImportProgressView) => {
      unsaid = undefined;
      emit(`${label}: ${describeProgress(p, count)}`, progressFields(p));
    };
    return {
      update(p) {
        unsaid = p;
        if (now() - last < PROGRESS_LINE_INTERVAL_MS) return;
        last = now();
        say(p);
      },
    // So a script's last progress object is not minutes old.
      stop: () => {
        if (unsaid) say(unsaid);
      },
    };
  }
  if (mode === 'lines') {
    let last = now();
    return {
      update(p) {
        if (now() - last < PROGRESS_LINE_INTERVAL_MS) return;
        last = now();
        stderr.write(`${label}: ${describeProgress(p, count)}\n`);
      },
      stop: () => undefined,
    };
  }
  // A terminal that reports no width (a bare pty) would make ora count its
  // line as infinitely many rows to clear: print plain lines there instead.
  const columns = (stderr as { columns?: number }).columns;
  if (!(typeof columns === 'number' && columns > 0)) return createProgress('lines', stderr, label, now, undefined, count);
  // ora is loaded only on a terminal.
  const { default: ora } = await import('ora');
  const spinner = ora({
    text: `${label}: starting`,
    // On the raw stream behind the guard, with text already neutralised.
    stream: ((stderr as { raw?: unknown }).raw ?? stderr) as NodeJS.WritableStream,
    // Leave stdin alone: Ctrl-C must stay a SIGINT (and stdin may be the CSV).
    discardStdin: false,
  }).start();
  return {
    update(p) {
      spinner.text = `${label}: ${describeProgress(p)}`;
    },
    stop() {
      spinner.stop();
    },
  };
}

function progressFields(p: ImportProgressView): Record<string, number | boolean | undefined> {
  return { rows: p.rowsRead, totalRows: p.totalRows, inFlight: p.inFlight, retries: p.retries, elapsedMs: Math.round(p.elapsedMs), done: p.done === true };
}

/** The share is of counted rows (at 100 only at the end) or, without a count, of bytes read, and says so. */
export function describeProgress(p: ImportProgressView, count: Count = countFor(true)): string {
  const seconds = p.elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(p.rowsRead / seconds) : 0;
  const rows = count(p.rowsRead);
  let fraction = 0;
  let head: string;
  if (p.totalRows !== undefined && p.totalRows > 0) {
    fraction = p.done ? 1 : Math.min(0.99, p.rowsRead / p.totalRows);
    head = `${rows} of ${count(Math.max(p.totalRows, p.rowsRead))} rows (${Math.floor(fraction * 100)}%)`;
  } else if (p.totalBytes > 0) {
    fraction = Math.min(1, p.bytesRead / p.totalBytes);
    head = `${rows} rows (${Math.floor(fraction * 100)}% of the bytes)`;
  } else {
    head = `${rows} rows`;
  }
  const parts = [head];
  parts.push(`${count(rate)} rows/s`);
  parts.push(`${p.inFlight} ${p.inFlight === 1 ? 'batch' : 'batches'} in flight`);
  parts.push(`${p.retries} ${p.retries === 1 ? 'retry' : 'retries'}`);
  if (fraction > 0.01 && fraction < 1 && seconds > 1) parts.push(`ETA ${clock((seconds / fraction) * (1 - fraction))}`);
  return parts.join(' · ');
}

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}
