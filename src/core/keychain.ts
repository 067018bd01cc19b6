// Keys in the OS keychain through @napi-rs/keyring (CLI.md "auth login"). Native
// and optional, so kept out of the bundle and loaded only when a profile's key is
// read or written there. A config directory other than the default gets its own
// service name, so tests never touch the user's keys.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { CliError, ExitCode, Interrupted } from './errors.js';
import { leftRunning } from './exit-now.js';

/** Long enough for any healthy Secret Service, short enough to be an error and not a hang. */
export const KEYCHAIN_LOOKUP_MS = 5_000;
/** Calls that may show the keychain's unlock prompt wait for a person. */
export const KEYCHAIN_PROMPT_MS = 60_000;

export const KEYCHAIN_SERVICE = 'email-cli';

type Env = Readonly<Record<string, string | undefined>>;
type Keyring = typeof import('@napi-rs/keyring');

export interface KeychainEntry {
  service: string;
  account: string;
}

/** `refused` and `unresponsive` are errors, never a quiet fallback to the 0600 file. */
export class KeychainError extends CliError {
  readonly exitCode = ExitCode.auth;
  constructor(
    readonly reason: 'unavailable' | 'refused' | 'unresponsive' | 'missing',
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = 'KeychainError';
  }
}

export function keychainEntry(dir: string, defaultDir: string, profile: string): KeychainEntry {
  const own = resolve(dir) === resolve(defaultDir);
  return { service: own ? KEYCHAIN_SERVICE : `${KEYCHAIN_SERVICE}:${resolve(dir)}`, account: profile };
}

/** On Linux the Secret Service needs a session bus; without one the module is not even loaded. */
function noSessionBus(env: Env): string | undefined {
  if (process.platform !== 'linux' && process.platform !== 'freebsd') return undefined;
  if (env.DBUS_SESSION_BUS_ADDRESS) return undefined;
  if (env.XDG_RUNTIME_DIR && existsSync(join(env.XDG_RUNTIME_DIR, 'bus'))) return undefined;
  return 'no D-Bus session bus';
}

let loaded: Promise<Keyring> | undefined;

async function keyring(env: Env): Promise<Keyring> {
  const noBus = noSessionBus(env);
  if (noBus) throw new KeychainError('unavailable', noBus, noBus);
  loaded ??= Promise.resolve().then(loadBinding).then(
    (mod) => mod,
    (error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      const detail =
        code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND'
          ? 'the keychain module (@napi-rs/keyring, an optional dependency) is not installed'
          : `the keychain module (@napi-rs/keyring) could not be loaded: ${firstLine(error)}`;
      throw new KeychainError('unavailable', detail, detail);
    },
  );
  return loaded;
}

/**
 * The platform package's binary directly: the module's index.js is much slower to load
 * (bench/README.md "A key in the keychain"). Anything unusual goes through that index.
 */
function loadBinding(): Keyring {
  const req = typeof require === 'function' ? require : createRequire(import.meta.url);
  const platformPackage =
    process.platform === 'linux'
      ? `@napi-rs/keyring-linux-${process.arch}-gnu`
      : process.platform === 'darwin'
        ? `@napi-rs/keyring-darwin-${process.arch}`
        : process.platform === 'win32'
          ? `@napi-rs/keyring-win32-${process.arch}-msvc`
          : undefined;
  if (platformPackage) {
    try {
      return createRequire(req.resolve('@napi-rs/keyring'))(platformPackage) as Keyring;
    } catch {
      // The module's own loader below says what is wrong, if anything is.
    }
  }
  return req('@napi-rs/keyring') as Keyring;
}

function openEntry(mod: Keyring, entry: KeychainEntry) {
  // Never the kernel keyring the module falls back to on Linux: it forgets keys at reboot.
  return new mod.AsyncEntry(entry.service, entry.account, { linux: { store: 'secret-service' } });
}

/** "Did not receive a reply" is a hung Secret Service; a D-Bus platform failure is no keychain. */
function classify(error: unknown): { reason: KeychainError['reason']; detail: string } {
  if (error instanceof KeychainError) return { reason: error.reason, detail: error.detail };
  const detail = firstLine(error);
  if (/did not receive a reply|NoReply|timed? ?out/i.test(detail)) return { reason: 'unresponsive', detail };
  if (/^Platform failure|DBus error/i.test(detail)) return { reason: 'unavailable', detail };
  return { reason: 'refused', detail };
}

/** A hung native call cannot be cancelled: on timeout or signal it is left to die with the process. */
function answerWithin<T>(call: Promise<T>, ms: number, signal: AbortSignal | undefined): Promise<T> {
  if (signal?.aborted) {
    leftRunning(call);
    return Promise.reject(new Interrupted());
  }
  return new Promise<T>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      leftRunning(call);
      reject(new Interrupted());
    };
    const timer = setTimeout(() => {
      done();
      leftRunning(call);
      const detail = `no answer within ${ms / 1000} s`;
      reject(new KeychainError('unresponsive', detail, detail));
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    call.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}

const linux = () => process.platform === 'linux' || process.platform === 'freebsd';

/** A lookup never prompts, so on Linux it catches a hung Secret Service within KEYCHAIN_LOOKUP_MS. */
function lookUp(mod: Keyring, entry: KeychainEntry, signal: AbortSignal | undefined) {
  return answerWithin(mod.findCredentialsAsync(entry.service), KEYCHAIN_LOOKUP_MS, signal).catch((error: unknown) => {
    if (error instanceof Interrupted || classify(error).reason === 'unresponsive') throw error;
    return [];
  });
}

function keychainFailure(error: unknown): Error {
  if (error instanceof Interrupted) return error;
  const { reason, detail } = classify(error);
  return new KeychainError(reason, detail, detail);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
}

/**
 * Null when the entry was deleted outside the tool. On Linux the non-prompting lookup comes
 * first: it runs on the thread pool while the HTTP core loads; only when it finds nothing
 * does the entry ask, so a locked keychain still shows its unlock prompt.
 */
export async function readKeychainKey(env: Env, entry: KeychainEntry, signal?: AbortSignal): Promise<string | null> {
  try {
    const mod = await keyring(env);
    if (linux()) {
      const found = await lookUp(mod, entry, signal);
      const hit = found.find((c) => c.account === entry.account);
      if (hit) return hit.password;
    }
    return await answerWithin(openEntry(mod, entry).getPassword(), KEYCHAIN_PROMPT_MS, signal);
  } catch (error) {
    throw keychainFailure(error);
  }
}

/** `{ stored: false }` only when there is no keychain here; a refusal throws. */
export async function storeKeychainKey(env: Env, entry: KeychainEntry, key: string, signal?: AbortSignal): Promise<{ stored: true } | { stored: false; why: string }> {
  try {
    const mod = await keyring(env);
    if (linux()) await lookUp(mod, entry, signal);
    await answerWithin(openEntry(mod, entry).setPassword(key), KEYCHAIN_PROMPT_MS, signal);
    return { stored: true };
  } catch (error) {
    const failure = keychainFailure(error);
    if (failure instanceof KeychainError && failure.reason === 'unavailable') return { stored: false, why: failure.detail };
    throw failure;
  }
}

export async function deleteKeychainKey(env: Env, entry: KeychainEntry, signal?: AbortSignal): Promise<boolean> {
  try {
    const mod = await keyring(env);
    if (linux()) await lookUp(mod, entry, signal);
    return await answerWithin(openEntry(mod, entry).deleteCredential(), KEYCHAIN_PROMPT_MS, signal);
  } catch (error) {
    throw keychainFailure(error);
  }
}
