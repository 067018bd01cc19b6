// Messages between --jq's worker thread and the main thread. Types only.

export interface JqWorkerData {
  /** One Int32: characters of output posted by the worker and not yet written to stdout by the main thread. */
  outstanding: SharedArrayBuffer;
  /** How far behind the main thread may fall before the worker waits. */
  window: number;
}

export type ToJq =
  | { type: 'check'; expression: string }
  | { type: 'run'; expression: string; input: string };

export type FromJq =
  /** Output, in order; the main thread subtracts its length from `outstanding` once written. */
  | { type: 'out'; text: string }
  /** The check or run ended: jq's exit code (-1: the engine failed) and the end of its stderr. */
  | { type: 'done'; exitCode: number; stderr: string };
