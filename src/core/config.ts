// Profiles and credentials (CLI.md "credentials", "config location", "auth
// login"). Settings live in one conf store, file mode 0600; each profile's key
// lives in the operating system's keychain (src/core/keychain.ts) where `auth
// login` found one, else in that file, and the profile records which
// (keyStore). The directory is created 0700 when the tool creates it; an
// existing one keeps its mode, and is refused when other users could write to
// it (they could swap the file and send the key elsewhere), as ssh refuses a
// loose ~/.ssh. Reading never creates anything: the store is opened with conf
// (which writes its defaults as it opens) only to write. Which settings are in
// effect, and from where, is src/core/settings.ts.
import { chmodSync, lstatSync, mkdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { configFileProblem, parseConfigText, readConfigText } from './config-file.js';
import { hinted, UsageError } from './errors.js';
import { isLoopbackHost } from './loopback.js';
import type { ProfileDefaults } from './profile-defaults.js';

/** Where a profile's key lives (CLI.md "auth login"). */
export type KeyStore = 'keychain' | 'file';

export interface Profile {
  baseUrl?: string;
  /** The key, when it lives in this file. */
  apiKey?: string;
  /** Absent in files written before keys went to the keychain: the key, if any, is then in the file. */
  keyStore?: KeyStore;
  /** What `email config set` stored: src/core/profile-defaults.ts. */
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

/** Where a profile's key is: the keychain, the file, or nowhere (a profile with a base URL only). */
export function keyStoreOf(profile: Profile | undefined): KeyStore | undefined {
  if (profile?.keyStore === 'keychain') return 'keychain';
  return profile?.apiKey ? 'file' : undefined;
}

/** The keychain entry of a profile of the config directory in effect (src/core/keychain.ts names them). */
export async function profileKeychainEntry(env: Readonly<Record<string, string | undefined>>, profile: string) {
  const { keychainEntry } = await import('./keychain.js');
  return keychainEntry(configDir(env), configDir({ ...env, EMAIL_CONFIG_DIR: undefined }), profile);
}

/**
 * A profile's key, from where it lives; undefined when it has none. A key in
 * the keychain that cannot be had is a KeychainError naming the profile
 * (exit 4), with what to do: unlock, log in again, or keep it in the file.
 */
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
 * Why an existing config directory cannot be trusted with keys, if it cannot
 * (POSIX only). As ssh does for ~/.ssh, a symbolic link is followed and its
 * target judged: a link you made to a private directory of yours is fine; one
 * planted by someone else points at a directory they own or can write to,
 * and is refused. A missing directory is no problem (it is created 0700 on
 * the first write).
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
  /** The stored profiles; empty when there is no file yet (nothing is created). */
  read(): ConfigData;
  /** Creates the directory (0700) and the file (0600) when missing. */
  write(data: ConfigData): Promise<void>;
}

/**
 * The one reader of the config, for every command, completion and doctor: a
 * directory or file the tool refuses (configDirProblem, configFileProblem)
 * is an error and supplies nothing at all, no key and no stored default.
 */
export function readConfig(env: Readonly<Record<string, string | undefined>>): { path: string; dir: string; data: ConfigData } {
  const dir = configDir(env);
  refuseUnsafeDir(dir);
  const path = configFilePath(dir);
  return { path, dir, data: readConfigFile(path) };
}

/** Opens the config store: the directory is checked now; nothing is created until write(). */
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
      // conf loaded only to write (it pulls in ajv, ~30 ms).
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

/**
 * Reads the config file without conf (which would write its defaults): a
 * missing file is an empty store; anything but a regular file of the
 * expected shape is a UsageError (src/core/config-file.ts). Only through
 * readConfig(), which judges the directory first.
 */
function readConfigFile(path: string): ConfigData {
  const text = readConfigText(path);
  if (text === undefined) return emptyConfig();
  const raw = parseConfigText(path, text);
  const profiles = raw.profiles ?? {};
  return raw.defaultProfile ? { defaultProfile: raw.defaultProfile, profiles: { ...profiles } } : { profiles: { ...profiles } };
}

/**
 * The key must never travel in clear text by accident (CLI.md "--base-url"):
 * https is required unless the host is loopback or --insecure-http is given.
 */
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

/**
 * A base URL as the same service whatever its spelling (host case, default
 * port, trailing slash): what a stored key is bound to. Text that is no URL
 * stays as given, trimmed.
 */
export function sameServiceUrl(raw: string): string {
  try {
    const url = new URL(raw.trim());
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return raw.trim();
  }
}

/**
 * A host and port typed without a scheme (`127.0.0.1:4010`, `localhost:4010`,
 * which the URL parser reads as the scheme "localhost:"): the scheme to add,
 * http:// for a loopback host (the sandbox), else https://, and the URL that
 * gives. Undefined when the text has a scheme, or is no URL even with one.
 */
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
