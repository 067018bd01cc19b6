// Binds each line of a journal to the import that wrote it, so records of
// batches never sent cannot be taken as acknowledged: a MAC chained from the
// line before, under a key from the API key and the journal's salt. Lines cut
// from the end are the one edit it cannot see, and harmless: they are sent again.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { JournalError, type LoadedJournal } from './journal-format.js';
import type { ServiceClient } from './journal-service.js';

/** The key of a journal's MACs: from the API key (through the client, which alone holds it) and the journal's salt. */
export async function journalMacKey(client: ServiceClient, salt: string): Promise<Buffer> {
  // A label of its own, so this digest is never the keyDigest the header shows.
  const secret = await client.keyDigest(`email-import-journal-mac:${salt}`);
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'hex'), Buffer.from(salt), 'email import journal records', 32));
}

/** JSON with sorted keys: reading and writing agree whatever the order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export class MacChain {
  private last = 'email-import-journal header';

  constructor(private readonly key: Buffer) {}

  /** The MAC of the next line, whose value (without its MAC) is `value`. */
  next(value: unknown): string {
    this.last = createHmac('sha256', this.key).update(this.last).update('\n').update(canonical(value)).digest('hex');
    return this.last;
  }
}

/** Throws JournalError naming the first line whose MAC is not what this key and the lines before it make. */
export function verifyJournal(path: string, journal: LoadedJournal, key: Buffer): void {
  const chain = new MacChain(key);
  for (const { line, value, mac } of journal.lines) {
    const expected = Buffer.from(chain.next(value), 'hex');
    const found = Buffer.from(mac, 'hex');
    if (found.length !== expected.length || !timingSafeEqual(found, expected)) {
      throw new JournalError(
        `the journal ${path} was altered: line ${line} is not what this import wrote (a line edited, added, moved, or one before it removed), so none of its batches is taken as sent`,
      );
    }
  }
}
