// A base URL ending in /email asks for /email/email/…, so every request is "not found". The URL is
// sent as given (a proxy may mount the service there); the 404 says which base URL to use instead.

/** Undefined when the base URL is not the likely cause. */
export function baseUrlPrefixHint(baseUrl: string, path: string, source?: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (!/\/email\/?$/i.test(url.pathname) || !/^\/email(\/|$)/i.test(path)) return undefined;
  const without = `${url.origin}${url.pathname.replace(/\/email\/?$/i, '')}`;
  return `the base URL ${baseUrl}${source ? ` (from ${source})` : ''} ends in /email, and every path of the service starts with /email/: use ${without}`;
}
