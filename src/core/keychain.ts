// Keys in the operating system's keychain (CLI.md "auth login", issue 21):
// the macOS Keychain, the Windows Credential Manager, the Secret Service on
// Linux (gnome-keyring, KWallet, KeePassXC), through @napi-rs/keyring. That
// module is native code in per-platform npm packages, so it cannot be
// bundled into dist/: it is an optional dependency, required (scripts/build.mjs
// keeps it external) only here, and this module is loaded only when a
// profile's key is read from or written to the keychain. Help, completion
// and a key from EMAIL_API_KEY never load it.
//
// Each key is one entry: service "email-cli", account the profile's name.
// A config directory given by EMAIL_CONFIG_DIR (tests, CI, a second setup)
// has entries of its own, service "email-cli:<directory>", so that it never
// reads or overwrites the keys of the user's own profiles.
//
// What can go wrong, and what the caller makes of it:
//   unavailable  no keychain here: the module is absent, no session bus, no
//                Secret Service on it. `auth login` falls back to the 0600 file.
//   refused      a keychain that exists but said no: locked (its unlock prompt
//                dismissed), access denied. One error, exit 4, with a hint.
//   unresponsive a keychain that exists and does not answer in time (a hung
//                gnome-keyring holds its bus name and replies to nothing):
//                an error like `refused`, never a fallback to the file.
//
// Every call is raced against a time limit and the command's signal: a hung
// native call cannot be cancelled, but once the race is lost nothing waits
// for it, and the program's exit ends it with the process.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { CliError, ExitCode, Interrupted } from './errors.js';
import { leftRunning } from './exit-now.js';

/**
 * How long a lookup may take. A Secret Service answers one in milliseconds
 * (about 8 ms with the session opened, bench/README.md), and one that is
 * started on demand by D-Bus in well under a second; D-Bus itself gives up
 * only after 25 s, which is what a hung daemon cost before. 5 s is far past
 * any healthy answer and short enough that a user waits for an error, not
 * for a timeout they cannot tell from a hang.
 */
export const KEYCHAIN_LOOKUP_MS = 5_000;
/**
 * A call that may show the keychain's own unlock prompt (reading with an
 * entry, storing, removing) waits for a person to type a password: a
 * minute. A hung Secret Service is caught before, by a lookup that cannot
 * prompt (on Linux, where that happens, every call starts with one).
 */
export const KEYCHAIN_PROMPT_MS = 60_000;

export const KEYCHAIN_SERVICE = 'email-cli';

type Env = Readonly<Record<string, string | undefined>>;
type Keyring = typeof import('@napi-rs/keyring');

/** Where one profile's key lives in the keychain. */
export interface KeychainEntry {
  service: string;
  account: string;
}

/**
 * A key the keychain cannot give or take: `unavailable` (there is no keychain
 * here), `refused` (it exists and said no), `missing` (the profile's entry was
 * removed outside the tool). Exit 4: the key cannot be had (CLI.md "Exit codes").
 */
export class KeychainError extends CliError {
  readonly exitCode = ExitCode.auth;
  constructor(
    readonly reason: 'unavailable' | 'refused' | 'unresponsive' | 'missing',
    message: string,
    /** What the keychain (or the module loader) said, for messages. */
    readonly detail: string,
  ) {
    super(message);
    this.name = 'KeychainError';
  }
}

/**
 * The entry of a profile kept in `dir`: service "email-cli" for the user's
 * own config directory, "email-cli:<dir>" for any other.
 */
export function keychainEntry(dir: string, defaultDir: string, profile: string): KeychainEntry {
  const own = resolve(dir) === resolve(defaultDir);
  return { service: own ? KEYCHAIN_SERVICE : `${KEYCHAIN_SERVICE}:${resolve(dir)}`, account: profile };
}

/**
 * On Linux the Secret Service is reached over the D-Bus session bus, found
 * as libdbus finds it: DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus.
 * With neither there is no keychain, and the module is not even loaded
 * (headless servers, containers, CI: the common case there).
 */
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
 * The module's binary, taken straight from the platform's own package where
 * there is one: @napi-rs/keyring's index.js tries a local file, checks the
 * libc and the binding's version before it gets there, and cost a read
 * 3.1 ms against 0.7 ms for the binary alone (Node 24, median of 5 runs).
 * The package is resolved from the module's own place, so any
 * layout npm or another manager makes is found; anything unexpected (another
 * libc, another platform, a binary that does not load) goes through the
 * module's own loader, which knows them all.
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
  // On Linux, the Secret Service and nothing else: the module would otherwise
  // fall back to the kernel's keyring, which forgets every key at reboot.
  return new mod.AsyncEntry(entry.service, entry.account, { linux: { store: 'secret-service' } });
}

/**
 * keyring-rs's errors, as @napi-rs/keyring passes them on: "Platform
 * failure: DBus error: …" (PlatformFailure) on Linux is no bus, or nothing on
 * it that provides the Secret Service: no keychain here; but "Did not receive
 * a reply" is D-Bus's own timeout, a Secret Service that is there and hung.
 * Anything else is a keychain that exists and said no: "Couldn't access
 * platform storage: …" (NoStorageAccess: locked and its unlock prompt
 * dismissed, access denied).
 */
function classify(error: unknown): { reason: KeychainError['reason']; detail: string } {
  if (error instanceof KeychainError) return { reason: error.reason, detail: error.detail };
  const detail = firstLine(error);
  if (/did not receive a reply|NoReply|timed? ?out/i.test(detail)) return { reason: 'unresponsive', detail };
  if (/^Platform failure|DBus error/i.test(detail)) return { reason: 'unavailable', detail };
  return { reason: 'refused', detail };
}

/**
 * The call's answer, unless the time limit or the signal comes first: then
 * KeychainError('unresponsive') or Interrupted, and the call is left to run
 * on its thread, holding nothing the program waits for.
 */
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

/**
 * The entries of a service, by a lookup that never prompts: on Linux, the
 * first call of each operation, so that a hung Secret Service is caught in
 * KEYCHAIN_LOOKUP_MS. Only an answer that does not come is final here (or
 * the signal): any other failure, [] here, is the entry's call to explain.
 */
function lookUp(mod: Keyring, entry: KeychainEntry, signal: AbortSignal | undefined) {
  return answerWithin(mod.findCredentialsAsync(entry.service), KEYCHAIN_LOOKUP_MS, signal).catch((error: unknown) => {
    if (error instanceof Interrupted || classify(error).reason === 'unresponsive') throw error;
    return [];
  });
}

/** A KeychainError for what went wrong; an interruption stays one. */
function keychainFailure(error: unknown): Error {
  if (error instanceof Interrupted) return error;
  const { reason, detail } = classify(error);
  return new KeychainError(reason, detail, detail);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
}

/**
 * The stored key, or null when there is no entry (deleted outside the tool).
 * Throws KeychainError. A locked keychain shows its own unlock prompt here
 * (a desktop's), and is refused only when that prompt is dismissed.
 *
 * What it costs a read (bench/README.md "A key in the keychain"): on
 * Linux the key is first looked for with findCredentialsAsync, which connects
 * to the bus, opens the Secret Service session (a Diffie-Hellman exchange,
 * about 6 ms) and decrypts the entry all on the thread pool, while the main
 * thread loads the HTTP core (src/context.ts starts it on the next turn of
 * the event loop): +8.0 ms over a key in the file on Node 24 against +10.0
 * ms through the entry, 22 +7.4 against +9.5, 26 +6.0 against +9.6 (paired
 * medians, 31 rounds, a quiet machine). An entry's constructor
 * does that work on the main thread, where nothing can overlap it.
 * findCredentialsAsync never prompts to unlock, so when it finds nothing
 * (locked, deleted, an error of any kind) the entry asks, and says why: a
 * locked keychain then shows a desktop's unlock prompt, a deleted entry is
 * null.
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

/**
 * Stores the key. Resolves `{ stored: true }`, or `{ stored: false, why }`
 * when there is no keychain here (the caller keeps the key in the file);
 * throws KeychainError('refused' or 'unresponsive') when the keychain exists
 * and said no or did not answer: never a quiet fallback to the file.
 */
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

/** Removes the entry; false when there was none. Throws KeychainError. */
export async function deleteKeychainKey(env: Env, entry: KeychainEntry, signal?: AbortSignal): Promise<boolean> {
  try {
    const mod = await keyring(env);
    if (linux()) await lookUp(mod, entry, signal);
    return await answerWithin(openEntry(mod, entry).deleteCredential(), KEYCHAIN_PROMPT_MS, signal);
  } catch (error) {
    throw keychainFailure(error);
  }
}
