// Which profile, key and base URL are in effect, and where each came from
// (CLI.md "credentials"). The one resolver: every command's client and
// `email doctor` read the same answer, so doctor can never name a base URL
// the commands do not use. The key: env EMAIL_API_KEY, else the profile in
// effect. The base URL: --base-url, else env EMAIL_BASE_URL, else the profile
// in effect. The profile in effect: --profile, else env EMAIL_PROFILE, else
// the stored default (else the one named "default").
import { checkBaseUrl, DEFAULT_PROFILE, keyStoreOf, openConfig, readConfig, readProfileKey, type ConfigData, type KeyStore } from './config.js';
import type { ProfileDefaults } from './profile-defaults.js';
import { AuthError, CliError, hinted, Interrupted, UsageError } from './errors.js';

export type ProfileChoice = 'flag' | 'env' | 'default';

/** Where a setting came from. */
export type Origin =
  | { kind: 'flag'; name: '--profile' | '--base-url' }
  | { kind: 'env'; name: 'EMAIL_API_KEY' | 'EMAIL_BASE_URL' | 'EMAIL_PROFILE' }
  | { kind: 'profile'; profile: string }
  /** The stored default profile, or "default" when none is stored. */
  | { kind: 'default' };

export interface Setting<T> {
  value: T;
  origin: Origin;
}

/** `--base-url`, `env EMAIL_BASE_URL`, `profile "staging"`, `the default profile`: the words messages use. */
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

/** Why this profile is the one in effect, as the messages say it. */
export function profileChoiceWords(chosenBy: ProfileChoice): string {
  return chosenBy === 'flag' ? 'given with --profile' : chosenBy === 'env' ? 'named by EMAIL_PROFILE' : 'the default profile';
}

export interface ResolveInput {
  env: Readonly<Record<string, string | undefined>>;
  profileFlag?: string;
  baseUrlFlag?: string;
  insecureHttp: boolean;
  /** Ends a keychain read that is waiting (CLI.md "signals"). */
  signal?: AbortSignal;
}

export interface ResolvedSettings {
  /** The profile in effect, whether it is stored, and whether anything was taken from it. */
  profile: Setting<string> & { chosenBy: ProfileChoice; exists: boolean; known: string[]; consulted: boolean };
  apiKey?: Setting<string> & { store?: KeyStore };
  /** Why the profile's key could not be had (a keychain that is locked or gone). */
  keyProblem?: CliError;
  /** As given, not yet checked: checkBaseUrl() judges it. */
  baseUrl?: Setting<string>;
  configPath?: string;
  /** Things the user may not expect, e.g. --profile ignored because EMAIL_API_KEY is set. */
  notes: string[];
}

/** Which profile is in effect and why: --profile, then EMAIL_PROFILE, then the stored default. */
export function chooseProfile(input: Pick<ResolveInput, 'env' | 'profileFlag'>, data: Pick<ConfigData, 'defaultProfile'>): { name: string; chosenBy: ProfileChoice } {
  if (input.profileFlag) return { name: input.profileFlag, chosenBy: 'flag' };
  if (input.env.EMAIL_PROFILE) return { name: input.env.EMAIL_PROFILE, chosenBy: 'env' };
  return { name: data.defaultProfile || DEFAULT_PROFILE, chosenBy: 'default' };
}

const profileOrigin = (chosenBy: ProfileChoice): Origin =>
  chosenBy === 'flag' ? { kind: 'flag', name: '--profile' } : chosenBy === 'env' ? { kind: 'env', name: 'EMAIL_PROFILE' } : { kind: 'default' };

/**
 * Every setting with its origin; throws only for a config directory or file
 * that cannot be used. A key that cannot be had is keyProblem, and what is
 * missing is left out, for the caller to judge (resolveCredentials() throws,
 * doctor reports). `config`: the profiles already read (doctor reads and
 * judges the file itself; an unusable one is given as no profiles).
 */
export async function resolveSettings(input: ResolveInput, config?: { path: string; data?: ConfigData }): Promise<ResolvedSettings> {
  const { env } = input;
  const keyFromProfile = !env.EMAIL_API_KEY;
  const urlFromProfile = !input.baseUrlFlag && !env.EMAIL_BASE_URL;
  const consulted = keyFromProfile || urlFromProfile;
  // With both halves from the environment the config is not even opened: CI with a broken or foreign config still runs.
  const store = consulted ? (config ?? (await openConfig(env))) : undefined;
  const data = store && ('read' in store ? store.read() : store.data);
  const chosen = chooseProfile(input, data ?? {});
  const profile = data?.profiles[chosen.name];
  const settings: ResolvedSettings = {
    profile: { value: chosen.name, origin: profileOrigin(chosen.chosenBy), chosenBy: chosen.chosenBy, exists: !!profile, known: Object.keys(data?.profiles ?? {}), consulted },
    configPath: store?.path,
    notes: [],
  };
  const fromProfile: Origin = { kind: 'profile', profile: chosen.name };
  if (env.EMAIL_API_KEY) {
    settings.apiKey = { value: env.EMAIL_API_KEY, origin: { kind: 'env', name: 'EMAIL_API_KEY' } };
  } else if (profile) {
    try {
      const key = await readProfileKey(env, chosen.name, profile, input.signal);
      if (key) settings.apiKey = { value: key, origin: fromProfile, store: keyStoreOf(profile) };
    } catch (error) {
      // An interruption is not a problem of the key: the command ends.
      if (!(error instanceof CliError) || error instanceof Interrupted) throw error;
      settings.keyProblem = error;
    }
  }
  if (input.baseUrlFlag) settings.baseUrl = { value: input.baseUrlFlag, origin: { kind: 'flag', name: '--base-url' } };
  else if (env.EMAIL_BASE_URL) settings.baseUrl = { value: env.EMAIL_BASE_URL, origin: { kind: 'env', name: 'EMAIL_BASE_URL' } };
  else if (profile?.baseUrl) settings.baseUrl = { value: profile.baseUrl, origin: fromProfile };
  if (env.EMAIL_API_KEY && settings.baseUrl?.origin.kind === 'profile') {
    settings.notes.push(`EMAIL_API_KEY is set without EMAIL_BASE_URL: the key from the environment, the base URL from profile "${chosen.name}"`);
  } else if (!consulted && chosen.chosenBy !== 'default') {
    settings.notes.push('EMAIL_API_KEY is set, so the profile is not used');
  }
  return settings;
}

/**
 * A profile named by --profile or EMAIL_PROFILE that is not stored, when
 * something was to come from it: a usage error naming the stored ones (exit
 * 2, as `auth switch` says it), not "no API key". A missing default profile
 * is left to the "no API key" error, whose hint is to log in.
 */
export function unknownProfileError(settings: ResolvedSettings): UsageError | undefined {
  const { profile } = settings;
  if (profile.exists || !profile.consulted || profile.chosenBy === 'default') return undefined;
  const login = `email auth login --profile ${profile.value}`;
  const named = `no profile named "${profile.value}" (${profileChoiceWords(profile.chosenBy)})`;
  return profile.known.length
    ? hinted(new UsageError(`${named}; profiles: ${profile.known.join(', ')}`), `Name one of these, or store this one with \`${login}\`.`)
    : hinted(new UsageError(`${named}, and no profile is stored`), `Store it with \`${login}\`.`);
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

/** The key and the checked base URL a command's client uses, or the error that says what is missing. */
export async function resolveCredentials(input: ResolveInput): Promise<ResolvedCredentials> {
  const settings = await resolveSettings(input);
  const { profile, apiKey } = settings;
  const unknown = unknownProfileError(settings);
  if (unknown) throw unknown;
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
  const keySource: KeySource =
    apiKey.origin.kind === 'env'
      ? { kind: 'env', detail: 'EMAIL_API_KEY' }
      : { kind: 'profile', profile: profile.value, chosenBy: profile.chosenBy, path: settings.configPath ?? '', store: apiKey.store ?? 'file' };
  return {
    apiKey: apiKey.value,
    baseUrl: checkBaseUrl(settings.baseUrl.value, input.insecureHttp, baseUrlSource),
    keySource,
    baseUrlSource,
    profile: keySource.kind === 'profile' ? profile.value : undefined,
    notes: settings.notes,
  };
}

/**
 * The stored defaults (`email config`) of the profile in effect, read only
 * when a command needs one it was not given: a flag or an environment
 * variable always wins, so the caller asks only after finding neither.
 */
export function profileDefaults(input: Pick<ResolveInput, 'env' | 'profileFlag'>): { profile: string; defaults: ProfileDefaults } {
  const { data } = readConfig(input.env);
  const { name } = chooseProfile(input, data);
  return { profile: name, defaults: data.profiles[name]?.defaults ?? {} };
}
