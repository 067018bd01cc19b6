// Types of import-roundtrip.mjs (plain JavaScript, so that scripts/soak-import.mjs runs it with node alone).
import type { Arbitrary } from 'fast-check';

export const BIN: string;
export const LIST_ID: string;
export const PROPERTIES: Record<string, string>;

/** Bounds of a generated case. */
export interface CaseLimits {
  maxRows?: number;
  maxInterruptions?: number;
  minLatencyMs?: number;
  maxLatencyMs?: number;
}

/** A generated case: a file, how its import runs and is interrupted, how the fixed failures file comes back. */
export interface RoundTripCase {
  rows: Record<string, unknown>[];
  pool: number;
  layout: Record<string, unknown> & { consentHeader: string | null };
  run: { batchSize: number; concurrency: number; latencyMs: number; consentFlag: 'yes' | 'no' | 'unchanged' | null; interruptions: Record<string, unknown>[]; slashOnResume: boolean };
  reimport: { via: 'file' | 'stdin' | 'fifo' | 'process-substitution' };
}

export interface RenderedRow {
  index: number;
  line: number;
  cells: string[];
  byKey: Record<string, string>;
  blank: boolean;
}

export interface Rendered {
  bytes: Buffer;
  header: string[];
  columns: string[];
  rows: RenderedRow[];
}

export interface Violation {
  property: keyof typeof PROPERTIES | string;
  detail: string;
}

export interface RoundTripResult {
  violations: Violation[];
  transcript: string[];
  rendered: Rendered;
}

export interface CheckOptions {
  limits?: CaseLimits;
  /** Let fast-check look for a smaller failing case (each try runs the whole round trip). */
  shrink?: boolean;
  /** Stop shrinking after this long. */
  shrinkTimeMs?: number;
  /** Keep the files of a failing case and name their folder in the transcript. */
  keepDir?: boolean;
  /** fast-check's path of a shrunk case (its report names it): replays that case of the seed. */
  path?: string;
}

export interface SeedOutcome {
  failed: boolean;
  /** The seed, the properties violated with their details, the file and the runs. */
  report?: string;
  counterexample?: RoundTripCase;
  properties: string[];
}

export function roundTripCase(limits?: CaseLimits): Arbitrary<RoundTripCase>;
export function renderCase(c: RoundTripCase): Rendered;
export function readDate(cell: string): { value?: string | null; absent?: true; invalid?: string; text?: string };
export function consentFlagOf(c: RoundTripCase): 'yes' | 'no' | 'unchanged' | null;
export function oracle(c: RoundTripCase, rendered?: Rendered): {
  outcomes: { line: number; outcome: 'imported' | 'failed' | 'rejected' | 'duplicate' | 'blank'; why?: string; key?: string; of?: number }[];
  fixes: Map<number, Record<string, string>>;
  counts: { rows: number; imported: number; failed: number; rejected: number; duplicates: number };
  afterImport: Map<string, unknown>;
  final: Map<string, unknown>;
};
export function csvLine(cells: string[], quoteAll?: boolean): string;
export function runRoundTrip(c: RoundTripCase, options?: CheckOptions): Promise<RoundTripResult>;
export function describeFailure(seed: number, c: RoundTripCase, result: RoundTripResult, path?: string, limits?: CaseLimits): string;
export function checkSeed(seed: number, options?: CheckOptions): Promise<SeedOutcome>;
