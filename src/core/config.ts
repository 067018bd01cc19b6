// Profiles and credentials (CLI.md "credentials", "config location", "auth login"): one 0600
// file, each key there or in the OS keychain. A directory others can write to is refused, as
// ssh refuses a loose ~/.ssh (they could swap the file and send the key elsewhere). Reading
// never creates anything: conf, which writes its defaults as it opens, is used only to write.
import { chmodSync, lstatSync, mkdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { configFileProblem, parseConfigText, readConfigText } from './config-file.js';
import { hinted, UsageError } from './errors.js';
import { isLoopbackHost } from './loopback.js';
import type { ProfileDefaults } from './profile-defaults.js';

export type KeyStore = 'keychain' | 'file';

export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  /** Absent in files written before keys went to the keychain: the key, if any, is then in the file. */
  keyStore?: KeyStore;
  defaults?: ProfileDefaults;
}

export interface ConfigData {
  /** Absent when no profile is the default (the last one was logged out): the one named "default" is then in effect. */
  defaultProfile?: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
const CONFIG_FILE_NAME = 'config';

export function configDir(env: Readonly<Record<string, string | undefined>>): string {
  if (env.EMAIL_CONFIG_DIR) return env.EMAIL_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'email-cli');
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'email-cli');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'email-cli');
}

export function configFilePath(dir: string): string {
  return join(dir, `${CONFIG_FILE_NAME}.json`);
}

/** True only when there is surely no config file (a look, none of the reader's checks): for what may do without one. */
export function noConfigFile(env: Readonly<Record<string, string | undefined>>): boolean {
  try {
    return !lstatSync(configFilePath(configDir(env)), { throwIfNoEntry: false });
  } catch {
    return false;
  }
}

export function keyStoreOf(profile: Profile | undefined): KeyStore | undefined {
  if (profile?.keyStore === 'keychain') return 'keychain';
  return profile?.apiKey ? 'file' : undefined;
}

export async function profileKeychainEntry(env: Readonly<Record<string, string | undefined>>, profile: string) {
  const { keychainEntry } = await import('./keychain.js');
  return keychainEntry(configDir(env), configDir({ ...env, EMAIL_CONFIG_DIR: undefined }), profile);
}

/** A keychain key that cannot be had is a KeychainError naming the profile, with what to do. */
export async function readProfileKey(env: Readonly<Record<string, string | undefined>>, name: string, profile: Profile | undefined, signal?: AbortSignal): Promise<string | undefined> {
  if (keyStoreOf(profile) !== 'keychain') return profile?.apiKey || undefined;
  const { KeychainError, readKeychainKey } = await import('./keychain.js');
  const login = `email auth login${name === DEFAULT_PROFILE ? '' : ` --profile ${name}`}`;
  let key: string | null;
  try {
    key = await readKeychainKey(env, await profileKeychainEntry(env, name), signal);
  } catch (error) {
    if (!(error instanceof KeychainError)) throw error;
    const insecure = `\`${login} --insecure-storage\``;
    if (error.reason === 'unresponsive') {
      throw hinted(
        new KeychainError('unresponsive', `the keychain did not answer when asked for the key of profile "${name}" (${error.detail})`, error.detail),
        `Check that the keychain's service is running (on Linux: gnome-keyring or KWallet), set EMAIL_API_KEY and EMAIL_BASE_URL, or keep the key in the config file with ${insecure}.`,
      );
    }
    throw error.reason === 'unavailable'
      ? hinted(
          new KeychainError('unavailable', `the key of profile "${name}" is in the keychain, which cannot be reached here (${error.detail})`, error.detail),
          `Run it where the keychain is (your desktop session), set EMAIL_API_KEY and EMAIL_BASE_URL, or keep the key in the config file with ${insecure}.`,
        )
      : hinted(
          new KeychainError('refused', `the keychain refused to give the key of profile "${name}" (${error.detail})`, error.detail),
          `Unlock the keychain and try again, or keep the key in the config file with ${insecure}.`,
        );
  }
  if (key === null || key === '') {
    throw hinted(
      new KeychainError('missing', `the key of profile "${name}" is no longer in the keychain (removed outside email)`, 'no entry'),
      `Store it again with \`${login}\`.`,
    );
  }
  return key;
}

export interface ConfigDirProblem {
  message: string;
  hint: string;
}

/**
 * POSIX only. As ssh does, a symbolic link is followed and its target judged: one planted by
 * someone else points at a directory they own or can write to.
 */
export function configDirProblem(dir: string): ConfigDirProblem | undefined {
  if (process.platform === 'win32') return undefined;
  let link: Stats | undefined;
  try {
    link = lstatSync(dir, { throwIfNoEntry: false });
  } catch (err) {
    return { message: `the config directory ${dir} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, hint: 'point EMAIL_CONFIG_DIR at a private directory of yours' };
  }
  if (!link) return undefined;
  const isLink = link.isSymbolicLink();
  let target: Stats;
  let described = `the config directory ${dir}`;
  try {
    target = isLink ? statSync(dir) : link;
    if (isLink) described += ` (a symbolic link to ${realpathSync(dir)})`;
  } catch {
    return {
      message: `the config directory ${dir} is a symbolic link to nothing`,
      hint: 'remove the link, or point EMAIL_CONFIG_DIR at a private directory of yours',
    };
  }
  if (!target.isDirectory()) return { message: `${described} is not a directory`, hint: 'point EMAIL_CONFIG_DIR at a private directory of yours' };
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  // Owned by you or by root, as ssh accepts.
  if (uid !== undefined && target.uid !== uid && target.uid !== 0) {
    return {
      message: `${described} belongs to user ${target.uid}, not to you: refusing to use it`,
      hint: isLink ? `remove the link (rm '${dir}'), or point EMAIL_CONFIG_DIR at a private directory of yours` : 'point EMAIL_CONFIG_DIR at a private directory of yours',
    };
  }
  if (target.mode & 0o022) {
    const mode = `0${(target.mode & 0o7777).toString(8)}`;
    return {
      message: `${described} is ${mode}: other users can write to it, so they could replace the config file; refusing to use it`,
      hint: isLink
        ? `remove the link (rm '${dir}'), or point EMAIL_CONFIG_DIR at a private directory of yours`
        : `chmod 700 '${dir}', or point EMAIL_CONFIG_DIR at a private directory of yours`,
    };
  }
  return undefined;
}

function refuseUnsafeDir(dir: string): void {
  const problem = configDirProblem(dir);
  if (!problem) return;
  const error = new UsageError(problem.message);
  error.hint = problem.hint;
  throw error;
}

const emptyConfig = (): ConfigData => ({ profiles: {} });

export interface ConfigStore {
  readonly path: string;
  readonly dir: string;
  read(): ConfigData;
  write(data: ConfigData): Promise<void>;
}

/** The one reader of the config: a refused directory or file supplies nothing, not even a default. */
export function readConfig(env: Readonly<Record<string, string | undefined>>): { path: string; dir: string; data: ConfigData } {
  const dir = configDir(env);
  refuseUnsafeDir(dir);
  const path = configFilePath(dir);
  return { path, dir, data: readConfigFile(path) };
}

export async function openConfig(env: Readonly<Record<string, string | undefined>>): Promise<ConfigStore> {
  const dir = configDir(env);
  refuseUnsafeDir(dir);
  const path = configFilePath(dir);
  return {
    path,
    dir,
    read: () => readConfig(env).data,
    write: async (data) => {
      try {
        // Only a directory the tool creates gets its mode from the tool.
        mkdirSync(dir, { recursive: true, mode: 0o700 });
      } catch (err) {
        throw new UsageError(`cannot create the config directory ${dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
      refuseUnsafeDir(dir);
      // conf would write through a link and chmod its target, and block on a FIFO.
      const problem = configFileProblem(path);
      if (problem) throw problem;
      // What a write killed before its rename left (it may hold keys) goes first.
      const { sweepConfigTemporaries } = await import('./private-temporaries.js');
      await sweepConfigTemporaries(dir, basename(path));
      // conf pulls in ajv: loaded only to write.
      const { default: Conf } = await import('conf');
      try {
        const conf = new Conf<ConfigData>({
          cwd: dir,
          configName: CONFIG_FILE_NAME,
          projectName: 'email-cli',
          configFileMode: 0o600,
          defaults: emptyConfig(),
          // Keys are secrets; the store must stay readable by tools like `jq` for support, so no obfuscation.
          clearInvalidConfig: false,
        });
        if (data.defaultProfile) conf.set('defaultProfile', data.defaultProfile);
        else conf.delete('defaultProfile');
        conf.set('profiles', data.profiles);
        chmodSync(conf.path, 0o600);
      } catch (err) {
        throw new UsageError(`cannot write the config file ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
    },
  };
}

/** Without conf, which would write its defaults; only through readConfig(), which judges the directory first. */
function readConfigFile(path: string): ConfigData {
  const text = readConfigText(path);
  if (text === undefined) return emptyConfig();
  const raw = parseConfigText(path, text);
  const profiles = raw.profiles ?? {};
  return raw.defaultProfile ? { defaultProfile: raw.defaultProfile, profiles: { ...profiles } } : { profiles: { ...profiles } };
}

/** The key must never travel in clear text by accident (CLI.md "--base-url"). */
export function checkBaseUrl(raw: string, insecureHttp: boolean, source = '--base-url'): string {
  const bare = withoutScheme(raw);
  if (bare) throw new UsageError(`invalid base URL from ${source}: "${raw}" has no scheme: add ${bare.scheme} (${bare.url})`);
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

/** What a stored key is bound to: the same service whatever the spelling of host, port or slash. */
export function sameServiceUrl(raw: string): string {
  try {
    const url = new URL(raw.trim());
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return raw.trim();
  }
}

/** `localhost:4010` parses as the scheme "localhost:": suggest http:// for loopback, else https://. */
function withoutScheme(raw: string): { scheme: string; url: string } | undefined {
  const text = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /\s/.test(text) || text === '') return undefined;
  let url: URL;
  try {
    url = new URL(`http://${text}`);
  } catch {
    return undefined;
  }
  if (!url.hostname) return undefined;
  const scheme = isLoopbackHost(url.hostname) ? 'http://' : 'https://';
  return { scheme, url: `${scheme}${text}` };
}
