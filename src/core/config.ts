// Profiles and credentials (CLI.md "credentials", "config location").
// Settings and keys live in one conf store, file mode 0600 in a 0700
// directory; the resolver returns the key together with where it came from.
import { chmodSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { AuthError, UsageError } from './errors.js';

export interface Profile {
  baseUrl?: string;
  apiKey?: string;
}

export interface ConfigData {
  defaultProfile: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
export const CONFIG_FILE_NAME = 'config';

export function configDir(env: Readonly<Record<string, string | undefined>>): string {
  if (env.EMAIL_CONFIG_DIR) return env.EMAIL_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'email-cli');
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'email-cli');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'email-cli');
}

export interface ConfigStore {
  readonly path: string;
  readonly dir: string;
  read(): ConfigData;
  write(data: ConfigData): void;
}

/** Opens the conf store (loaded lazily: conf pulls in ajv, ~30 ms). */
export async function openConfig(env: Readonly<Record<string, string | undefined>>): Promise<ConfigStore> {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const { default: Conf } = await import('conf');
  const conf = new Conf<ConfigData>({
    cwd: dir,
    configName: CONFIG_FILE_NAME,
    projectName: 'email-cli',
    configFileMode: 0o600,
    defaults: { defaultProfile: DEFAULT_PROFILE, profiles: {} },
    // Keys are secrets; the store must stay readable by tools like `jq` for support, so no obfuscation.
    clearInvalidConfig: false,
  });
  return {
    path: conf.path,
    dir,
    read: () => ({
      defaultProfile: conf.get('defaultProfile') ?? DEFAULT_PROFILE,
      profiles: { ...(conf.get('profiles') ?? {}) },
    }),
    write: (data) => {
      conf.set('defaultProfile', data.defaultProfile);
      conf.set('profiles', data.profiles);
      chmodSync(conf.path, 0o600);
    },
  };
}

export type KeySource =
  | { kind: 'env'; detail: 'EMAIL_API_KEY' }
  | { kind: 'profile'; profile: string; chosenBy: 'flag' | 'env' | 'default'; path: string };

export interface ResolvedCredentials {
  apiKey: string;
  baseUrl: string;
  keySource: KeySource;
  baseUrlSource: string;
  profile?: string;
  /** Things the user may not expect, e.g. --profile ignored because EMAIL_API_KEY is set. */
  notes: string[];
}

export interface ResolveInput {
  env: Readonly<Record<string, string | undefined>>;
  profileFlag?: string;
  baseUrlFlag?: string;
  insecureHttp: boolean;
}

/** Which profile is in effect and why: --profile, then EMAIL_PROFILE, then the stored default. */
export function chooseProfile(input: ResolveInput, data: ConfigData): { name: string; chosenBy: 'flag' | 'env' | 'default' } {
  if (input.profileFlag) return { name: input.profileFlag, chosenBy: 'flag' };
  if (input.env.EMAIL_PROFILE) return { name: input.env.EMAIL_PROFILE, chosenBy: 'env' };
  return { name: data.defaultProfile || DEFAULT_PROFILE, chosenBy: 'default' };
}

/**
 * Resolves key and base URL in CLI.md's order: EMAIL_API_KEY (+ EMAIL_BASE_URL),
 * else the profile named by --profile or EMAIL_PROFILE, else the default
 * profile. --base-url overrides the base URL of any source.
 */
export async function resolveCredentials(input: ResolveInput): Promise<ResolvedCredentials> {
  const { env } = input;
  let resolved: Omit<ResolvedCredentials, 'baseUrl' | 'baseUrlSource' | 'notes'> & { baseUrl?: string; baseUrlSource?: string };
  const notes: string[] = [];
  if (env.EMAIL_API_KEY) {
    // CLI.md fixes the order: the environment wins even over --profile (CI sets it on purpose).
    resolved = {
      apiKey: env.EMAIL_API_KEY,
      keySource: { kind: 'env', detail: 'EMAIL_API_KEY' },
      baseUrl: env.EMAIL_BASE_URL,
      baseUrlSource: env.EMAIL_BASE_URL ? 'env EMAIL_BASE_URL' : undefined,
    };
    if (input.profileFlag || env.EMAIL_PROFILE) notes.push('EMAIL_API_KEY is set, so the profile is not used');
  } else {
    const store = await openConfig(env);
    const data = store.read();
    const chosen = chooseProfile(input, data);
    const profile = data.profiles[chosen.name];
    if (!profile?.apiKey) {
      const why =
        chosen.chosenBy === 'flag' ? 'given with --profile' : chosen.chosenBy === 'env' ? 'named by EMAIL_PROFILE' : 'the default profile';
      const err = new AuthError({
        status: 0,
        method: '',
        path: '',
        message: `no API key for profile "${chosen.name}" (${why})`,
      });
      err.hint = `Run \`email auth login${chosen.name === DEFAULT_PROFILE ? '' : ` --profile ${chosen.name}`}\`, or set EMAIL_API_KEY and EMAIL_BASE_URL.`;
      throw err;
    }
    resolved = {
      apiKey: profile.apiKey,
      keySource: { kind: 'profile', profile: chosen.name, chosenBy: chosen.chosenBy, path: store.path },
      profile: chosen.name,
      baseUrl: profile.baseUrl,
      baseUrlSource: profile.baseUrl ? `profile "${chosen.name}"` : undefined,
    };
    if (!input.baseUrlFlag && env.EMAIL_BASE_URL && !profile.baseUrl) {
      resolved.baseUrl = env.EMAIL_BASE_URL;
      resolved.baseUrlSource = 'env EMAIL_BASE_URL';
    }
  }
  if (input.baseUrlFlag) {
    resolved.baseUrl = input.baseUrlFlag;
    resolved.baseUrlSource = '--base-url';
  }
  if (!resolved.baseUrl) {
    throw new UsageError('no base URL: pass --base-url <url>, set EMAIL_BASE_URL, or store one with `email auth login --base-url <url>`');
  }
  const baseUrl = checkBaseUrl(resolved.baseUrl, input.insecureHttp, resolved.baseUrlSource ?? '--base-url');
  return { ...resolved, baseUrl, baseUrlSource: resolved.baseUrlSource ?? '--base-url', notes };
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname.endsWith('.localhost');
}

/**
 * The key must never travel in clear text by accident (CLI.md "--base-url"):
 * https is required unless the host is loopback or --insecure-http is given.
 */
export function checkBaseUrl(raw: string, insecureHttp: boolean, source = '--base-url'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid base URL from ${source}: "${raw}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`invalid base URL from ${source}: "${raw}" (use https://)`);
  }
  if (url.username || url.password) throw new UsageError(`base URL from ${source} must not contain credentials`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !insecureHttp) {
    throw new UsageError(
      `refusing plain http:// to ${url.host} (from ${source}): the key would travel in clear text; use https:// or pass --insecure-http`,
    );
  }
  if (url.search || url.hash) throw new UsageError(`base URL from ${source} must not have a query or fragment`);
  return url.toString().replace(/\/+$/, '');
}
