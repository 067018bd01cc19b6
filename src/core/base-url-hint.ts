// What to say when the service answers 404 to a base URL that already ends
// in /email: every path of the service starts with /email/, so such a base
// URL asks for /email/email/… and every request is "not found". The URL is
// sent as given (a proxy may really mount the service under /email, and gh
// and stripe do not rewrite the host a user gives them either); the 404 then
// says which base URL to use instead.

/** The hint for a 404 to `path` below `baseUrl`, or undefined when the base URL is not the likely cause. */
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
