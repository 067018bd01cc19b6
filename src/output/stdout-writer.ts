// The writing end of stdout for the renderer: write() waits for 'drain' when
// stdout pushes back and fails once the reader went away.
import { BrokenPipe } from './edges.js';
import type { Writable } from './writable.js';

const HELD_CHARS = 64 * 1024;

export class StdoutWriter {
  private held: string[] | undefined;
  private heldLength = 0;

  constructor(private readonly stdout: Writable) {}

  /** Rejects with BrokenPipe once the reader went away, so a command stops at its next write. */
  async write(text: string): Promise<void> {
    if (this.held) {
      this.held.push(text);
      this.heldLength += text.length;
      if (this.heldLength < HELD_CHARS) return;
      return this.writeOut(this.release());
    }
    return this.writeOut(text);
  }

  /** A whole list is held and written in pieces: one write for a short list, bounded memory for a long one. */
  async holding(run: () => Promise<void>): Promise<void> {
    if (this.held) return run();
    this.held = [];
    try {
      await run();
    } catch (error) {
      this.held = undefined;
      throw error;
    }
    const rest = this.release();
    this.held = undefined;
    if (rest) await this.writeOut(rest);
  }

  private release(): string {
    const text = this.held!.join('');
    this.held = [];
    this.heldLength = 0;
    return text;
  }

  private async writeOut(text: string): Promise<void> {
    const stdout = this.stdout;
    if (stdout.closed) throw new BrokenPipe();
    const ok = stdout.write(text);
    if (!ok && stdout.once) await new Promise<void>((resolve) => stdout.once!('drain', resolve));
    if (stdout.closed) throw new BrokenPipe();
  }
}
