// Doctor's checks of the settings in effect, as the one resolver the commands use answers them.
import { checkBaseUrl, DEFAULT_PROFILE, type ConfigData } from '../../core/config.js';
import { AuthError } from '../../core/errors.js';
import { describeDefaults } from '../../core/profile-defaults.js';
import { checkResult as result, type CheckResult } from '../../core/probes.js';
import { maskKey } from '../../core/redact.js';
import { defaultsWithheld, describeOrigin, unknownProfileError, type ResolvedSettings } from '../../core/settings.js';

function why(settings: ResolvedSettings): string {
  return settings.profile.chosenBy === 'default' ? 'the default profile' : `from ${describeOrigin(settings.profile.origin)}`;
}

/** A failure here is a key problem (exit 4), except a profile that does not exist. */
export function checkProfile(settings: ResolvedSettings, configPath: string): { result: CheckResult; authProblem: boolean } {
  const { profile, apiKey } = settings;
  const unknown = unknownProfileError(settings);
  if (unknown) return { result: result('profile', 'fail', unknown.message, unknown.hint), authProblem: unknown instanceof AuthError };
  if (apiKey?.origin.kind === 'env') {
    const key = `key ${maskKey(apiKey.value)} from env EMAIL_API_KEY`;
    const base = settings.baseUrl?.origin.kind === 'profile' ? `; the base URL from "${profile.value}" (${why(settings)})` : '';
    // The variable wins over a stored key, whether EMAIL_BASE_URL is set or not: worth a warning either way.
    if (profile.keyStore) {
      return {
        result: result('profile', 'warn', `${key}, not the key stored for "${profile.value}" (${why(settings)})${base}`, `unset EMAIL_API_KEY to use the key of profile "${profile.value}"`),
        authProblem: false,
      };
    }
    if (base) return { result: result('profile', 'ok', `${key}${base}`), authProblem: false };
    if (profile.chosenBy === 'default') return { result: result('profile', 'ok', `${key} (profiles are not used)`), authProblem: false };
    const ignored = describeOrigin(profile.origin);
    return { result: result('profile', 'warn', `${key}; ${ignored} is ignored while it is set`, `unset EMAIL_API_KEY to use the profile named by ${ignored}`), authProblem: false };
  }
  if (settings.keyBound) {
    const where = profile.keyStore === 'keychain' ? 'in the keychain' : `in ${configPath}`;
    return { result: result('profile', 'ok', `"${profile.value}" (${why(settings)}), key ${where}, stored for ${profile.baseUrl ?? 'no base URL'}`), authProblem: false };
  }
  if (settings.keyProblem) return { result: result('profile', 'fail', `"${profile.value}" (${why(settings)}): ${settings.keyProblem.message}`, settings.keyProblem.hint), authProblem: true };
  if (apiKey) {
    const where = apiKey.store === 'keychain' ? 'in the keychain' : `in ${configPath} (0600)`;
    return { result: result('profile', 'ok', `"${profile.value}" (${why(settings)}), key ${maskKey(apiKey.value)} ${where}`), authProblem: false };
  }
  const known = profile.known.length ? `; profiles: ${profile.known.join(', ')}` : '';
  return {
    result: result(
      'profile',
      'fail',
      `${profile.exists ? 'no key stored for' : 'no'} profile "${profile.value}" (${why(settings)})${known}`,
      `run \`email auth login${profile.value === DEFAULT_PROFILE ? '' : ` --profile ${profile.value}`}\`, or set EMAIL_API_KEY and EMAIL_BASE_URL`,
    ),
    authProblem: true,
  };
}

export function checkBaseUrlSetting(settings: ResolvedSettings, insecureHttp: boolean): { result: CheckResult; url?: URL } {
  if (!settings.baseUrl) {
    return { result: result('base URL', 'fail', 'none configured', 'pass --base-url <url>, set EMAIL_BASE_URL, or store one with `email auth login --base-url <url>`') };
  }
  const source = describeOrigin(settings.baseUrl.origin);
  if (settings.keyBound) return { result: result('base URL', 'fail', settings.keyBound.message, settings.keyBound.hint) };
  try {
    const value = checkBaseUrl(settings.baseUrl.value, insecureHttp, source);
    return { result: result('base URL', 'ok', `${value} (from ${source})`), url: new URL(value) };
  } catch (error) {
    return { result: result('base URL', 'fail', error instanceof Error ? error.message : String(error), `fix the URL where it comes from (${source})`) };
  }
}

/** The stored defaults, and which a variable set here overrides (the pager, by EMAIL_PAGER or PAGER). */
export function checkDefaults(settings: ResolvedSettings, data: ConfigData | undefined, env: Readonly<Record<string, string | undefined>>): CheckResult {
  if (!data) return result('defaults', 'skip', 'the config file could not be read');
  const name = settings.profile.value;
  const pagerVariable = env.EMAIL_PAGER !== undefined ? 'EMAIL_PAGER' : env.PAGER !== undefined ? 'PAGER' : undefined;
  const words = describeDefaults(data.profiles[name]?.defaults ?? {}, pagerVariable ? { pager: `(${pagerVariable} wins over it)` } : {});
  if (!words) return result('defaults', 'ok', `none stored for profile "${name}" (\`email config set\` stores them)`);
  const withheld = defaultsWithheld(settings.baseUrl, data.profiles[name]?.baseUrl);
  return result('defaults', 'ok', `profile "${name}": ${words}${withheld ? `; ${withheld}` : ''}`);
}
