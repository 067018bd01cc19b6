// The service a journal belongs to, so `--resume` against another service or
// with another key is refused (CLI.md "--journal / --resume").
import { createHash, randomBytes } from 'node:crypto';

/** Never the key: an HMAC of it under a random salt. */
export interface JournalService {
  /** Normalised (serviceUrl()). */
  baseUrl: string;
  keySalt: string;
  keyDigest: string;
}

export interface ServiceClient {
  readonly baseUrl: URL;
  keyDigest(salt: string): Promise<string>;
}

/** A base URL as the journal compares it: scheme and host lower-case, no default port, no credentials, no trailing slash. */
export function serviceUrl(url: URL | string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
}

/** A fresh salt for each new journal. */
export async function journalService(client: ServiceClient): Promise<JournalService> {
  const keySalt = randomBytes(16).toString('hex');
  return { baseUrl: serviceUrl(client.baseUrl), keySalt, keyDigest: await client.keyDigest(keySalt) };
}

/** Why this run talks to another service than the journal's, in words; undefined when it is the same. */
export async function serviceMismatch(path: string, recorded: JournalService, client: ServiceClient): Promise<string | undefined> {
  const now = serviceUrl(client.baseUrl);
  if (recorded.baseUrl !== now) return `the journal ${path} was written for ${recorded.baseUrl}; this run talks to ${now}`;
  const digest = await client.keyDigest(recorded.keySalt);
  // Compared as digests of digests: equal length, and no timing to learn from.
  if (sha256(digest) !== sha256(recorded.keyDigest)) return `the journal ${path} was written with another API key`;
  return undefined;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
