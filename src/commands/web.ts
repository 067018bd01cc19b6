// `--web` and `campaigns open`: as gh's `--web`, a piped stdout still opens the
// browser; only a missing display prints the URL.
import type { Context } from '../context.js';
import { UnexpectedResponseError } from '../core/errors.js';
import { messageOnly, switchOption, type Result } from './define.js';

export const WEB_OPTION = switchOption('--web', "open the record's page in the browser instead of printing it", { short: '-w' });

/** A URL a browser is never given, quoted short and escaped for the error. */
function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? 'nothing';
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

/** A page URL absent or not http(s) is the service's answer not fitting the spec: exit 1, nothing opened. */
export async function openPage(ctx: Context, value: unknown, field: string, request: string): Promise<Result> {
  const { webPageUrl, openInBrowser } = await import('../core/open-url.js');
  const url = webPageUrl(value);
  if (url === undefined) {
    const [method = 'GET', path = request] = request.split(' ');
    const detail = value === undefined || value === null || value === '' ? `${field}: no page URL in the answer` : `${field}: expected an http(s) URL, got ${quoted(value)}; it is not opened`;
    throw new UnexpectedResponseError(method, path, detail);
  }
  // A browser's command line shows in `ps` to every user: a URL holding the key is never put there.
  const masked = (await ctx.api()).redact(url);
  if (masked !== url) return { data: { URL: masked }, people: (_, out) => out.line(masked), message: "Not opened in a browser: the page's URL holds your API key, which the browser's command line would show to other users of this machine (ps); it is printed with the key masked." };
  const outcome = await openInBrowser(url, ctx.env);
  if (outcome.opened) return { data: { URL: url }, people: messageOnly, message: `Opening ${url} in your browser.` };
  // The URL alone on stdout, so `$(…)` and a terminal's link both work.
  return { data: { URL: url }, people: (_, out) => out.line(url), message: `Not opened in a browser: ${outcome.reason}.` };
}
