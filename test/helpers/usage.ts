// What a client-side check refused with: the UsageError's code and message
// (exit 2, nothing sent), or undefined when it passed.
import { UsageError } from '../../src/core/errors.js';

export function refusal(fn: () => unknown): { code: number | undefined; message: string } | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof UsageError) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
}
