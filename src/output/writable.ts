// In a file of its own so the message writer needs only this shape, not the guards.
export interface Writable {
  write(chunk: string | Uint8Array): boolean;
  once?(event: 'drain', listener: () => void): unknown;
  readonly closed?: boolean;
  /** From now on a write never blocks (for a command that serves others while it prints). */
  writeAsynchronously?(): void;
  /** Output without end from now on: shown as it comes, never held for a pager. */
  unpaged?(): void;
}
