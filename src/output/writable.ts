// The shape of a stream the program writes to, in a file of its own: the
// stdout/stderr guards (src/output/edges.ts) use the message writer
// (messages.ts), which needs only this shape, not the guards.
/** A stream the program writes to: process.stdout/stderr, or a test's sink. */
export interface Writable {
  write(chunk: string | Uint8Array): boolean;
  once?(event: 'drain', listener: () => void): unknown;
  /** True once the reader went away (src/output/edges.ts): nothing more can be written. */
  readonly closed?: boolean;
  /**
   * From now on a write never blocks the process: a full pipe buffers and
   * 'drain' tells when it has room. process.stdout already writes a pipe so
   * on Linux and macOS; a stream that does not may switch here. For a command
   * that serves others while it prints (webhooks listen).
   */
  writeAsynchronously?(): void;
  /**
   * What is written from now on is output without end (CLI.md "pager"):
   * shown as it comes, never held for a pager, which is for finite output.
   */
  unpaged?(): void;
}
