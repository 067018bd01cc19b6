// The key check of `email doctor`: one read call with the key in effect,
// whose answer also gives the service's clock.
import { checkKey } from '../../api/account.js';
import type { Context } from '../../context.js';
import { ApiError, AuthError, CliError, NetworkError, RedirectError } from '../../core/errors.js';
import type { RawResponse } from '../../core/http.js';
import { checkResult as result, type CheckResult } from '../../core/probes.js';

export async function checkApiKey(
  ctx: Context,
  baseUrl: string,
  apiKey: string,
  /** What to do about a 401, naming where the key came from. */
  refusedHint: string,
): Promise<{ result: CheckResult; authProblem: boolean; response?: RawResponse; sentAt: number; answeredAt: number }> {
  const sentAt = ctx.now().getTime();
  const started = performance.now();
  try {
    const client = await ctx.apiWith({ baseUrl, apiKey });
    const response = await checkKey(client);
    const answeredAt = ctx.now().getTime();
    return {
      result: result('api key', 'ok', `accepted (GET /email/clients/scheduled: ${response.status} in ${Math.round(performance.now() - started)} ms)`),
      authProblem: false,
      response,
      sentAt,
      answeredAt,
    };
  } catch (error) {
    const answeredAt = ctx.now().getTime();
    if (error instanceof AuthError) {
      const hint = error.status === 403 ? 'the account is suspended or out of credits; check it in the web app' : refusedHint;
      return { result: result('api key', 'fail', `refused (${error.status}): ${error.message}`, hint), authProblem: true, sentAt, answeredAt };
    }
    if (error instanceof RedirectError) {
      // CLI.md "redirects": a proxy or a wrong base URL answered, so the key was not checked at all.
      const hint = error.location ? 'the base URL is not the service\'s; if the address it points to is, use that as the base URL' : 'the base URL is not the service\'s';
      return { result: result('api key', 'fail', error.message, hint), authProblem: false, sentAt, answeredAt };
    }
    if (error instanceof ApiError) {
      return { result: result('api key', 'fail', `GET /email/clients/scheduled answered ${error.status}: ${error.message}`, error.hint ?? 'is the base URL the service\'s, including any path prefix?'), authProblem: false, sentAt, answeredAt };
    }
    if (error instanceof NetworkError || error instanceof CliError) {
      return { result: result('api key', 'fail', error.message, 'run again with --debug to see the request'), authProblem: false, sentAt, answeredAt };
    }
    throw error;
  }
}
