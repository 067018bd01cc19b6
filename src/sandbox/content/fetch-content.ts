// The sandbox's one way to read content from a URL: only loopback http(s) is fetched; another
// http(s) URL is never contacted, and any other scheme is refused, since answering file: URLs
// would tell anyone with the public key which files exist on the machine.

const CONTENT_FETCH_TIMEOUT_MS = 2_000;
const CONTENT_MAX_BYTES = 5 * 1024 * 1024;

type ContentFetch =
  | { kind: 'content'; bytes: Buffer }
  /** Not fetched (a non-local URL) or not fetchable; content checks are skipped. */
  | { kind: 'unknown'; reason: string };

/** Whether `url` names this machine: 127.0.0.0/8, ::1 or localhost. No name is resolved. */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m !== null && Number(m[1]) === 127 && m.slice(2).every((part) => Number(part) <= 255);
}

/**
 * Whether a content URL is well-formed: an absolute http(s) URL with a host.
 * Any other scheme (file:, ftp:, data:…) is not, and is refused with the
 * field's code whatever it points at, so the answer says nothing about the
 * machine.
 */
export function isContentUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * Reads content for checking. Only loopback http(s) URLs are read; redirects
 * are not followed (they could lead off the machine). Nothing else is
 * touched, the filesystem included.
 */
export async function fetchLocalContent(
  rawUrl: string,
  { timeoutMs = CONTENT_FETCH_TIMEOUT_MS, maxBytes = CONTENT_MAX_BYTES }: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<ContentFetch> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { kind: 'unknown', reason: 'not a URL' };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !isLoopbackUrl(url)) {
    return { kind: 'unknown', reason: 'not a loopback http(s) URL; never fetched' };
  }
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel();
      return { kind: 'unknown', reason: `HTTP ${response.status}` };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > maxBytes) return { kind: 'unknown', reason: 'content too large' };
      chunks.push(Buffer.from(chunk));
    }
    return { kind: 'content', bytes: Buffer.concat(chunks) };
  } catch (error) {
    return { kind: 'unknown', reason: (error as Error).message };
  }
}
