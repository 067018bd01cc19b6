// The progress line (CLI.md "progress": ora on a terminal only, never with --quiet; lines every few seconds with --progress).
import { describe, expect, it } from 'vitest';
import { createProgress, describeProgress, progressMode, PROGRESS_LINE_INTERVAL_MS } from '../../src/output/progress.js';

describe('progress', () => {
  it('is a spinner on a terminal, nothing off it unless --progress asks for lines, and nothing with --quiet', () => {
    expect(progressMode({ stderrIsTTY: true, quiet: false, linesRequested: false })).toBe('spinner');
    expect(progressMode({ stderrIsTTY: false, quiet: false, linesRequested: false })).toBe('off');
    expect(progressMode({ stderrIsTTY: false, quiet: false, linesRequested: true })).toBe('lines');
    expect(progressMode({ stderrIsTTY: true, quiet: true, linesRequested: true })).toBe('off');
  });

  it('says rows, percentage of bytes, rows/s, batches in flight, retries and an ETA', () => {
    const text = describeProgress({ rowsRead: 120_000, bytesRead: 25, totalBytes: 100, inFlight: 3, retries: 2, elapsedMs: 4_000 });
    expect(text).toBe('120,000 rows (25% of the bytes) · 30,000 rows/s · 3 batches in flight · 2 retries · ETA 0:12');
  });

  it('tracks rows against the rows the structure check counted, never 100 % before the end (issue 13.6)', () => {
    const base = { bytesRead: 36, totalBytes: 100, inFlight: 1, retries: 0, elapsedMs: 5_000 };
    expect(describeProgress({ ...base, rowsRead: 9_984, totalRows: 50_000 })).toMatch(/^9,984 of 50,000 rows \(19%\)/);
    expect(describeProgress({ ...base, rowsRead: 49_152, totalRows: 50_000 })).toMatch(/^49,152 of 50,000 rows \(98%\)/);
    // Blank lines make the count an estimate: at or past it, not done yet is 99 %.
    expect(describeProgress({ ...base, rowsRead: 50_000, totalRows: 50_000 })).toMatch(/\(99%\)/);
    expect(describeProgress({ ...base, rowsRead: 50_000, totalRows: 50_000, done: true })).toMatch(/^50,000 of 50,000 rows \(100%\)/);
    // Without a count (standard input not yet measured), bytes, said as such.
    expect(describeProgress({ ...base, rowsRead: 9_984 })).toMatch(/^9,984 rows \(36% of the bytes\)/);
  });

  it('prints one line per interval off a terminal, on stderr', async () => {
    let now = 0;
    let written = '';
    const progress = await createProgress('lines', { write: (s) => ((written += String(s)), true) }, 'importing people.csv', () => now);
    const p = { rowsRead: 10, bytesRead: 1, totalBytes: 10, inFlight: 1, retries: 0, elapsedMs: 2000 };
    progress.update(p);
    now = PROGRESS_LINE_INTERVAL_MS;
    progress.update(p);
    progress.update(p);
    expect(written.split('\n').filter(Boolean)).toEqual(['importing people.csv: 10 rows (10% of the bytes) · 5 rows/s · 1 batch in flight · 0 retries · ETA 0:18']);
  });
});
