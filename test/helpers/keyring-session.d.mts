// Types of keyring-session.mjs (plain JavaScript, so that bench/startup.bench.mjs runs it with node alone).

export interface KeyringSession {
  /** DBUS_SESSION_BUS_ADDRESS of the private bus: give it to bin/email. */
  env: { DBUS_SESSION_BUS_ADDRESS: string };
  /** The secret stored under this service and account, or null. */
  lookup(service: string, account: string): string | null;
  /** Stores a secret from outside the program. */
  store(service: string, account: string, secret: string): void;
  /** Removes an entry from outside the program. */
  clear(service: string, account: string): void;
  /** Locks the login keyring (nobody answers the unlock prompt here). */
  lock(): void;
  /** Stops the Secret Service where it stands (SIGSTOP): it keeps its name on the bus and answers nothing. */
  freeze(): void;
  /** Lets a frozen Secret Service run again. */
  thaw(): void;
  /** Ends the keyring and the bus, removes their files. */
  stop(): void;
}

export function startKeyringSession(options?: { secretService?: boolean }): Promise<{ ok: true; session: KeyringSession } | { ok: false; reason: string }>;
