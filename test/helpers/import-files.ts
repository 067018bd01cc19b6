// CSV files and checks for the import tests: files written to a fresh temp
// directory, generated subscribers, the sandbox's view of a list, and the one
// check every import test makes (CLI.md "Import guarantees": the counts add up
// to the data rows).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ImportSummary } from '../../src/import/importer.js';
import type { RecordedRequest, RunningSandbox } from '../../src/sandbox/index.js';

export function tempDir(prefix = 'email-import-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes a file (text or bytes) into `dir` and returns its path. */
export function writeFile(dir: string, name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** `count` rows of `email,name,Company,Consent` with addresses person<start+i>@example.com. */
export function peopleCsv(count: number, options: { start?: number; header?: string; eol?: string; consent?: string } = {}): string {
  const eol = options.eol ?? '\n';
  const lines = [options.header ?? 'email,name,Company,Consent'];
  const start = options.start ?? 0;
  for (let i = start; i < start + count; i++) lines.push(`person${i}@example.com,Person ${i},Company ${i % 7},${options.consent ?? 'yes'}`);
  return lines.join(eol) + eol;
}

export type SummaryLike = Pick<ImportSummary, 'rows' | 'new' | 'existing' | 'failed' | 'rejected' | 'duplicates'> & { wouldSend?: number };

/** rows = new + existing + failed + rejected + duplicates (+ would-send in a dry run): checked in every import test. */
export function expectCountsAddUp(summary: SummaryLike): void {
  const sum = summary.new + summary.existing + summary.failed + summary.rejected + summary.duplicates + (summary.wouldSend ?? 0);
  expect(sum, `counts of ${JSON.stringify(summary)}`).toBe(summary.rows);
}

/** The import requests the sandbox recorded, with their parsed bodies. */
export function importRequests(sandbox: RunningSandbox, since = 0): { request: RecordedRequest; body: { Subscribers: { EmailAddress: string }[] } & Record<string, unknown> }[] {
  return sandbox.requests
    .slice(since)
    .filter((r) => r.method === 'POST' && /\/import$/.test(r.path))
    .map((request) => ({ request, body: (typeof request.body === 'string' ? JSON.parse(request.body) : request.body) as never }));
}

/** Addresses (lower-cased) on a sandbox list. */
export function listAddresses(sandbox: RunningSandbox, listId: string): Set<string> {
  return new Set(Object.keys(sandbox.state().lists[listId.toLowerCase()]!.Subscribers));
}
