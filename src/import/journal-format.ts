// The import journal's format (CLI.md "--journal / --resume"): JSON lines, a
// header binding it to its input, options and service (never the key), then
// one line per acknowledged batch with its refused rows, so a resumed run can
// report the whole file. Lines carry chained MACs (journal-mac.ts); anything
// damaged or impossible for the file is refused before anything is sent.
import * as z from 'zod/mini';
import { readRegularFile, UnsafePathError } from '../core/private-file.js';
import { describeIssue } from '../core/response-issues.js';
import type { InputIdentity } from './input.js';
import type { JournalService } from './journal-service.js';

export const JOURNAL_KIND = 'email-import-journal';
/** An earlier version's journal is refused, not resumed: without MACs its records cannot be told from forged ones. */
export const JOURNAL_VERSION = 3;

/** Everything that changes the requests of an import: a resumed run must use the same. */
export interface JournalOptions {
  list: string;
  batchSize: number;
  consent: string | null;
  resubscribe: boolean;
  queueAutoresponders: boolean;
  restartAutoresponders: boolean;
  delimiter: string;
  encoding: string;
  multiSeparator: string | null;
  /** Options added later are present only when given, so earlier journals still fit. */
  includeUnsubscribed?: boolean;
  dateOnly?: true;
  /** Per column: EmailAddress, Name, ConsentToTrack, -, or field:<key>. */
  mapping: string[];
  strict?: boolean;
}

export interface JournalHeader {
  kind: typeof JOURNAL_KIND;
  version: number;
  input: { name: string } & InputIdentity;
  options: JournalOptions;
  service: JournalService;
  createdAt: string;
}

export interface BatchRecord {
  batch: number;
  rows: number;
  new: number;
  existing: number;
  failed: number;
  retries: number;
  /** [TotalUniqueEmailsSubmitted, TotalExistingSubscribers, TotalNewSubscribers]. */
  service: [number, number, number];
  /** [position in the batch, Code, Message]. */
  failures: [number, string, string][];
}

// What a journal read back must be (zod/mini: the words of each check are ours, core/response-issues.ts).
const count = z.int('expected a whole number').check(z.gte(0, 'expected a whole number, 0 or more'));
const headerSchema = z.object({
  kind: z.literal(JOURNAL_KIND),
  version: z.literal(JOURNAL_VERSION),
  // Loose: what identifies an input is input.ts's to say; journalMismatch() compares what is there.
  input: z.looseObject({ name: z.string(), size: count, mtimeMs: z.optional(z.number()), sha256: z.string(), hashed: z.string() }),
  options: z.object({
    list: z.string(),
    batchSize: count.check(z.gte(1, 'expected 1 or more')),
    consent: z.nullable(z.string()),
    resubscribe: z.boolean(),
    queueAutoresponders: z.boolean(),
    restartAutoresponders: z.boolean(),
    delimiter: z.string(),
    encoding: z.string(),
    multiSeparator: z.nullable(z.string()),
    includeUnsubscribed: z.optional(z.boolean()),
    dateOnly: z.optional(z.literal(true)),
    mapping: z.array(z.string()),
    strict: z.optional(z.boolean()),
  }),
  service: z.object({ baseUrl: z.string(), keySalt: z.string().check(z.minLength(16, 'expected a salt')), keyDigest: z.string() }),
  createdAt: z.string(),
  mac: z.string(),
});
const recordSchema = z.object({
  batch: count,
  rows: count.check(z.gte(1, 'expected 1 or more')),
  new: count,
  existing: count,
  failed: count,
  retries: count,
  service: z.tuple([count, count, count]),
  failures: z.array(z.tuple([count, z.string(), z.string()])),
  mac: z.string(),
});

/** A line as read: what its MAC covers (the line's value without `mac`, as parsed) and its MAC. */
export interface SealedLine {
  line: number;
  value: Record<string, unknown>;
  mac: string;
}

export interface LoadedJournal {
  header: JournalHeader;
  /** By index, in the order of the file. */
  batches: Map<number, BatchRecord>;
  /** Every line but a torn last one, for the MAC chain. */
  lines: SealedLine[];
}

/** `ours`: the file is a journal this tool wrote (damaged, or of another version), which --restart may discard. */
export class JournalError extends Error {
  constructor(
    message: string,
    readonly ours = true,
  ) {
    super(message);
  }
}

/**
 * Reads a journal without following a link: undefined when there is none,
 * 'empty' when it records no batch (CLI.md: it never blocks a new run). A torn
 * last line (a crash in mid-append) is dropped and its batch sent again, which
 * is harmless; anything else wrong throws JournalError naming the line.
 */
export async function loadJournal(path: string): Promise<LoadedJournal | 'empty' | undefined> {
  let data: Buffer | undefined;
  try {
    data = await readRegularFile(path);
  } catch (err) {
    if (err instanceof UnsafePathError) throw new JournalError(`the journal ${err.path} ${err.reason}: it is not read or written through`, false);
    throw new JournalError(`cannot read the journal ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, false);
  }
  if (data === undefined) return undefined;
  const text = data.toString('utf8');
  const lines = text.split('\n');
  lines.pop(); // after the last line break: empty, or a line torn by a crash
  let first: { kind?: unknown; version?: unknown } | undefined;
  try {
    first = JSON.parse(lines[0] ?? text) as typeof first;
  } catch {
    // below
  }
  if (first?.kind !== JOURNAL_KIND) throw new JournalError(`${path} is not an import journal`, false);
  if (lines.length <= 1) return 'empty';
  if (first.version !== JOURNAL_VERSION) throw new JournalError(`${path} was written by another version of this tool (journal version ${String(first.version)})`);
  const damaged = (line: number, what: string) => new JournalError(`the journal ${path} is damaged: line ${line}${what}`);
  const header = headerSchema.safeParse(first);
  if (!header.success) throw damaged(1, `: ${describeIssue(header.error.issues[0], first)}`);
  const { mac: headerMac, ...headerData } = header.data;
  const sealed: SealedLine[] = [{ line: 1, value: unsealed(first), mac: headerMac }];
  const batches = new Map<number, BatchRecord>();
  for (let i = 1; i < lines.length; i++) {
    let value: unknown;
    try {
      value = JSON.parse(lines[i]!);
    } catch {
      throw damaged(i + 1, ' is not JSON');
    }
    const parsed = recordSchema.safeParse(value);
    if (!parsed.success) throw damaged(i + 1, `: ${describeIssue(parsed.error.issues[0], value)}`);
    const { mac, ...record } = parsed.data as BatchRecord & { mac: string };
    const problem = checkRecord(record, header.data.options.batchSize) ?? (batches.has(record.batch) ? `batch ${record.batch + 1} is recorded twice` : undefined);
    if (problem) throw damaged(i + 1, `: ${problem}`);
    batches.set(record.batch, record);
    sealed.push({ line: i + 1, value: unsealed(value), mac });
  }
  return { header: headerData as JournalHeader, batches, lines: sealed };
}

/** What a line's MAC covers: everything but the MAC, as read (not as the schema keeps it: an added key is an edit too). */
function unsealed(value: unknown): Record<string, unknown> {
  const { mac: _mac, ...rest } = value as Record<string, unknown>;
  return rest;
}

/** What is wrong with one batch record on its own: its counts must add up. */
function checkRecord(r: BatchRecord, batchSize: number): string | undefined {
  const name = `batch ${r.batch + 1}`;
  if (r.rows > batchSize) return `${name} has ${r.rows} rows; --batch-size is ${batchSize}`;
  if (r.new + r.existing + r.failed !== r.rows) return `${name}: new + existing + failed is ${r.new + r.existing + r.failed}, not its ${r.rows} rows`;
  if (r.failures.length !== r.failed) return `${name}: ${r.failed} rows failed, but ${r.failures.length} failures are listed`;
  const seen = new Set<number>();
  for (const [position] of r.failures) {
    if (position >= r.rows) return `${name}: failure position ${position} is not a row of the batch (it has ${r.rows})`;
    if (seen.has(position)) return `${name}: failure position ${position} is listed twice`;
    seen.add(position);
  }
  return undefined;
}

/** What makes the batches impossible for this file: more than its rows fill, or a short one before the last. */
export function journalDoesNotFit(batches: Map<number, BatchRecord>, batchSize: number, maxRows: number | undefined): string | undefined {
  let last = -1;
  let rows = 0;
  for (const record of batches.values()) {
    last = Math.max(last, record.batch);
    rows += record.rows;
  }
  if (maxRows !== undefined) {
    const most = Math.ceil(maxRows / batchSize);
    if (last >= most) return `it records batch ${last + 1}, but the file holds at most ${most} ${most === 1 ? 'batch' : 'batches'} of ${batchSize} rows`;
    if (rows > maxRows) return `its batches hold ${rows} rows, but the file holds at most ${maxRows}`;
  }
  for (const record of batches.values()) {
    if (record.rows < batchSize && record.batch !== last) return `batch ${record.batch + 1} has ${record.rows} rows, but only the last batch can have fewer than ${batchSize}`;
  }
  return undefined;
}

/** The differences between a journal and this run, in words; empty when they match. */
export function journalMismatch(header: JournalHeader, input: InputIdentity, options: JournalOptions): string[] {
  const differences: string[] = [];
  const was = header.input;
  if (was.size !== input.size) differences.push(`the input's size changed (${was.size} → ${input.size} bytes)`);
  if (was.mtimeMs !== input.mtimeMs && input.mtimeMs !== undefined) differences.push('the input file was modified since');
  if (was.hashed !== input.hashed || was.sha256 !== input.sha256) differences.push(`the input's content differs (SHA-256 of the ${input.hashed === 'all' ? 'data' : 'first 64 KiB'})`);
  const labels: Record<keyof JournalOptions, string> = {
    list: '--list',
    batchSize: '--batch-size',
    consent: '--consent',
    resubscribe: '--resubscribe',
    queueAutoresponders: '--queue-autoresponders',
    restartAutoresponders: '--restart-autoresponders',
    delimiter: '--delimiter',
    encoding: '--encoding',
    multiSeparator: '--multi-separator',
    includeUnsubscribed: '--include-unsubscribed',
    dateOnly: '--date-only',
    mapping: 'the column mapping (--map)',
    strict: '--strict',
  };
  for (const key of Object.keys(labels) as (keyof JournalOptions)[]) {
    const before = JSON.stringify(header.options[key] ?? null);
    const now = JSON.stringify(options[key] ?? null);
    if (before === now) continue;
    const shown = (json: string) => (json === 'null' ? 'not given' : json);
    if (key === 'strict') differences.push(now === 'true' ? '--strict is given now, not before' : '--strict was given before, not now');
    else differences.push(key === 'mapping' ? `${labels[key]} changed` : `${labels[key]} was ${shown(before)}, now ${shown(now)}`);
  }
  return differences;
}

