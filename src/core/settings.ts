// Which profile, key and base URL are in effect, and from where (CLI.md "credentials"). The one
// resolver, read by every client, completion and doctor; `help environment` prints its rules.
import { checkBaseUrl, DEFAULT_PROFILE, keyStoreOf, openConfig, readConfig, readProfileKey, sameServiceUrl, type ConfigData, type KeyStore, type Profile } from './config.js';
import type { ProfileDefaults } from './profile-defaults.js';
import { AuthError, CliError, hinted, Interrupted, UsageError } from './errors.js';

export type ProfileChoice = 'flag' | 'env' | 'default';

export type Origin =
  | { kind: 'flag'; name: '--profile' | '--base-url' }
  | { kind: 'env'; name: 'EMAIL_API_KEY' | 'EMAIL_BASE_URL' | 'EMAIL_PROFILE' }
  | { kind: 'profile'; profile: string }
  | { kind: 'default' };

export interface Setting<T> {
  value: T;
  origin: Origin;
}

export function describeOrigin(origin: Origin): string {
  switch (origin.kind) {
    case 'flag':
      return origin.name;
    case 'env':
      return `env ${origin.name}`;
    case 'profile':
      return `profile "${origin.profile}"`;
    case 'default':
      return 'the default profile';
  }
}

export function profileChoiceWords(chosenBy: ProfileChoice): string {
  return chosenBy === 'flag' ? 'given with --profile' : chosenBy === 'env' ? 'named by EMAIL_PROFILE' : 'the default profile';
}

export interface ResolveInput {
  env: Readonly<Record<string, string | undefined>>;
  profileFlag?: string;
  baseUrlFlag?: string;
  insecureHttp: boolean;
  signal?: AbortSignal;
}

export interface ResolvedSettings {
  profile: Setting<string> & { chosenBy: ProfileChoice; exists: boolean; known: string[]; consulted: boolean; keyStore?: KeyStore; baseUrl?: string };
  apiKey?: Setting<string> & { store?: KeyStore };
  keyProblem?: CliError;
  /** A key stored for another base URL is not read, and not sent. */
  keyBound?: UsageError;
  baseUrl?: Setting<string>;
  configPath?: string;
  /** Things the user may not expect, e.g. --profile ignored because EMAIL_API_KEY is set. */
  notes: string[];
}

export function chooseProfile(input: Pick<ResolveInput, 'env' | 'profileFlag'>, data: Pick<ConfigData, 'defaultProfile'>): { name: string; chosenBy: ProfileChoice } {
  if (input.profileFlag) return { name: input.profileFlag, chosenBy: 'flag' };
  if (input.env.EMAIL_PROFILE) return { name: input.env.EMAIL_PROFILE, chosenBy: 'env' };
  return { name: data.defaultProfile || DEFAULT_PROFILE, chosenBy: 'default' };
}

const profileOrigin = (chosenBy: ProfileChoice): Origin =>
  chosenBy === 'flag' ? { kind: 'flag', name: '--profile' } : chosenBy === 'env' ? { kind: 'env', name: 'EMAIL_PROFILE' } : { kind: 'default' };

/**
 * Throws only for an unusable config; a key that cannot be had is keyProblem, and what is
 * missing is left for the caller (resolveCredentials() throws, doctor reports).
 */
export async function resolveSettings(input: ResolveInput, config?: { path: string; data?: ConfigData }): Promise<ResolvedSettings> {
  const { env } = input;
  const keyFromProfile = !env.EMAIL_API_KEY;
  const urlFromProfile = !input.baseUrlFlag && !env.EMAIL_BASE_URL;
  const consulted = keyFromProfile || urlFromProfile;
  // With both halves from the environment the config is not opened: CI with a broken config still runs.
  const store = config ?? (consulted ? await openConfig(env) : undefined);
  const data = store && ('read' in store ? store.read() : store.data);
  const chosen = chooseProfile(input, data ?? {});
  const profile = data?.profiles[chosen.name];
  const settings: ResolvedSettings = {
    profile: {
      value: chosen.name,
      origin: profileOrigin(chosen.chosenBy),
      chosenBy: chosen.chosenBy,
      exists: !!profile,
      known: Object.keys(data?.profiles ?? {}),
      consulted,
      keyStore: keyStoreOf(profile),
      baseUrl: profile?.baseUrl,
    },
    configPath: store?.path,
    notes: [],
  };
  const fromProfile: Origin = { kind: 'profile', profile: chosen.name };
  if (input.baseUrlFlag) settings.baseUrl = { value: input.baseUrlFlag, origin: { kind: 'flag', name: '--base-url' } };
  else if (env.EMAIL_BASE_URL) settings.baseUrl = { value: env.EMAIL_BASE_URL, origin: { kind: 'env', name: 'EMAIL_BASE_URL' } };
  else if (profile?.baseUrl) settings.baseUrl = { value: profile.baseUrl, origin: fromProfile };
  if (env.EMAIL_API_KEY) {
    settings.apiKey = { value: env.EMAIL_API_KEY, origin: { kind: 'env', name: 'EMAIL_API_KEY' } };
  } else if (profile) {
    settings.keyBound = keyBinding(chosen.name, profile, settings.baseUrl);
    try {
      const key = settings.keyBound ? undefined : await readProfileKey(env, chosen.name, profile, input.signal);
      if (key) settings.apiKey = { value: key, origin: fromProfile, store: keyStoreOf(profile) };
    } catch (error) {
      // An interruption is not a problem of the key: the command ends.
      if (!(error instanceof CliError) || error instanceof Interrupted) throw error;
      settings.keyProblem = error;
    }
  }
  if (env.EMAIL_API_KEY && settings.baseUrl?.origin.kind === 'profile') {
    settings.notes.push(`EMAIL_API_KEY is set without EMAIL_BASE_URL: the key from the environment, the base URL from profile "${chosen.name}"`);
  } else if (!consulted && chosen.chosenBy !== 'default') {
    settings.notes.push('EMAIL_API_KEY is set, so the profile is not used');
  }
  return settings;
}

/** A stored key goes only to the base URL it was stored with (CLI.md "credentials"). */
function keyBinding(name: string, profile: Profile, baseUrl: Setting<string> | undefined): UsageError | undefined {
  if (!keyStoreOf(profile) || !baseUrl || baseUrl.origin.kind === 'profile') return undefined;
  if (profile.baseUrl && sameServiceUrl(profile.baseUrl) === sameServiceUrl(baseUrl.value)) return undefined;
  const given = `${baseUrl.value} (from ${describeOrigin(baseUrl.origin)})`;
  const login = `email auth login${name === DEFAULT_PROFILE ? '' : ` --profile ${name}`}`;
  const message = profile.baseUrl
    ? `profile "${name}"'s key was stored for ${profile.baseUrl}, not for ${given}: refusing to send it there`
    : `profile "${name}"'s key has no base URL stored with it: refusing to send it to ${given}`;
  return hinted(
    new UsageError(message),
    profile.baseUrl
      ? `A stored key goes only to its own base URL. For another service, log in there under another profile (\`email auth login --profile <name> --base-url <url>\`), or give its key in EMAIL_API_KEY.`
      : `Store it with its base URL: \`${login} --base-url <url>\`.`,
  );
}

/** A missing default profile is left to the "no API key" error, whose hint is to log in. */
export function unknownProfileError(settings: ResolvedSettings): CliError | undefined {
  const { profile } = settings;
  if (profile.exists || !profile.consulted || profile.chosenBy === 'default') return undefined;
  const login = `email auth login --profile ${profile.value}`;
  const named = `no profile named "${profile.value}" (${profileChoiceWords(profile.chosenBy)})`;
  if (profile.known.length) return hinted(new UsageError(`${named}; profiles: ${profile.known.join(', ')}`), `Name one of these, or store this one with \`${login}\`.`);
  // Nothing stored at all is no typo: no key configured (exit 4), with the login that fixes it.
  return hinted(
    new AuthError({ status: 0, method: '', path: '', message: `${named}, and no profile is stored` }),
    `Log in with \`${login} --base-url <url>\`, or set EMAIL_API_KEY and EMAIL_BASE_URL.`,
  );
}

export type KeySource =
  | { kind: 'env'; detail: 'EMAIL_API_KEY' }
  | { kind: 'profile'; profile: string; chosenBy: ProfileChoice; path: string; store: KeyStore };

export interface ResolvedCredentials {
  apiKey: string;
  baseUrl: string;
  keySource: KeySource;
  baseUrlSource: string;
  profile?: string;
  notes: string[];
}

export async function resolveCredentials(input: ResolveInput): Promise<ResolvedCredentials> {
  const settings = await resolveSettings(input);
  const { profile, apiKey } = settings;
  const unknown = unknownProfileError(settings);
  if (unknown) throw unknown;
  if (settings.keyBound) throw settings.keyBound;
  if (settings.keyProblem) throw settings.keyProblem;
  if (!apiKey) {
    const err = new AuthError({ status: 0, method: '', path: '', message: `no API key for profile "${profile.value}" (${profileChoiceWords(profile.chosenBy)})` });
    err.hint = `Run \`email auth login${profile.value === DEFAULT_PROFILE ? '' : ` --profile ${profile.value}`}\`, or set EMAIL_API_KEY and EMAIL_BASE_URL.`;
    throw err;
  }
  if (!settings.baseUrl) {
    throw new UsageError('no base URL: pass --base-url <url>, set EMAIL_BASE_URL, or store one with `email auth login --base-url <url>`');
  }
  const baseUrlSource = describeOrigin(settings.baseUrl.origin);
  const keySource = keySourceOf(settings, apiKey);
  return {
    apiKey: apiKey.value,
    baseUrl: checkBaseUrl(settings.baseUrl.value, input.insecureHttp, baseUrlSource),
    keySource,
    baseUrlSource,
    profile: keySource.kind === 'profile' ? profile.value : undefined,
    notes: settings.notes,
  };
}

export function keySourceOf(settings: ResolvedSettings, apiKey: NonNullable<ResolvedSettings['apiKey']>): KeySource {
  const { profile } = settings;
  return apiKey.origin.kind === 'env'
    ? { kind: 'env', detail: 'EMAIL_API_KEY' }
    : { kind: 'profile', profile: profile.value, chosenBy: profile.chosenBy, path: settings.configPath ?? '', store: apiKey.store ?? 'file' };
}

/** EMAIL_API_KEY wins over every profile, so `auth status` would not show the key at fault. */
export function refusedKeyHint(source: KeySource): string {
  if (source.kind === 'env') return 'The key from EMAIL_API_KEY was refused: check the variable (it wins over every profile), or unset it to use the key `email auth login` stored.';
  const flag = source.profile === DEFAULT_PROFILE ? '' : ` --profile ${source.profile}`;
  return `The key of profile "${source.profile}" was refused. Check it with \`email auth status${flag}\`, or store a new one with \`email auth login${flag}\`.`;
}

/** Defaults belong to the profile's service (CLI.md "email config"). */
export function defaultsWithheld(baseUrl: Setting<string> | undefined, profileBaseUrl: string | undefined): string | undefined {
  if (!baseUrl || baseUrl.origin.kind === 'profile') return undefined;
  if (profileBaseUrl && sameServiceUrl(profileBaseUrl) === sameServiceUrl(baseUrl.value)) return undefined;
  return `not used: the base URL in effect (${describeOrigin(baseUrl.origin)}) is not the profile's${profileBaseUrl ? ` (${profileBaseUrl})` : ''}`;
}

/** Read only when neither a flag nor a variable gave the setting: those always win. */
export function profileDefaults(input: Pick<ResolveInput, 'env' | 'profileFlag' | 'baseUrlFlag'>): { profile: string; defaults: ProfileDefaults; withheld?: string } {
  const { data } = readConfig(input.env);
  const { name } = chooseProfile(input, data);
  const baseUrl: Setting<string> | undefined = input.baseUrlFlag
    ? { value: input.baseUrlFlag, origin: { kind: 'flag', name: '--base-url' } }
    : input.env.EMAIL_BASE_URL
      ? { value: input.env.EMAIL_BASE_URL, origin: { kind: 'env', name: 'EMAIL_BASE_URL' } }
      : undefined;
  const withheld = defaultsWithheld(baseUrl, data.profiles[name]?.baseUrl);
  return { profile: name, defaults: withheld ? {} : (data.profiles[name]?.defaults ?? {}), ...(withheld ? { withheld } : {}) };
}
