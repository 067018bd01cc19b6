// Every environment variable the tool reads: printed by `email help environment`, and
// test/help/environment.test.ts fails when the source reads one not listed here.

export interface EnvironmentVariable {
  readonly name: string;
  /** What it does, one or two sentences. */
  readonly does: string;
  /** What it wins over and what wins over it, when anything else sets the same thing. */
  readonly precedence?: string;
}

export const ENVIRONMENT: readonly EnvironmentVariable[] = [
  {
    name: 'EMAIL_API_KEY',
    does: "The API key, alone or with EMAIL_BASE_URL; alone, it goes to the base URL of the profile in effect (--base-url, or EMAIL_BASE_URL, sends it elsewhere). The keychain is then not opened.",
    precedence: 'It wins over the key of every profile, even one named by --profile or EMAIL_PROFILE.',
  },
  {
    name: 'EMAIL_BASE_URL',
    does: "The service's base URL (https:// unless loopback). With a profile's stored key and no EMAIL_API_KEY it must be the profile's own base URL (else exit 2); naming another service, it also turns off the profile's stored defaults.",
    precedence: '--base-url wins over it; it wins over the profile.',
  },
  { name: 'EMAIL_PROFILE', does: 'The profile to use when no --profile is given.', precedence: '--profile wins over it; it wins over the default profile; EMAIL_API_KEY wins over its key.' },
  {
    name: 'EMAIL_CONFIG_DIR',
    does: 'The directory of the config file (and of keys kept there), instead of the user config directory. Tests, CI and a second setup use it.',
    precedence: 'Wins over XDG_CONFIG_HOME, APPDATA and HOME.',
  },
  { name: 'EMAIL_PAGER', does: 'The pager for output to a terminal taller than the screen; EMAIL_PAGER=cat turns paging off.', precedence: "--no-pager wins over it; it wins over PAGER, the profile's stored pager (`email config set pager`), then `less -FRX`." },
  { name: 'PAGER', does: 'The pager, when EMAIL_PAGER is not set.', precedence: "EMAIL_PAGER and --no-pager win over it; it wins over the profile's stored pager." },
  { name: 'EMAIL_RETRY_BASE_MS', does: 'The first back-off delay between retries, in milliseconds (a number >= 0; anything else is ignored).' },
  { name: 'EMAIL_RETRY_MAX_WAIT_MS', does: 'The most time all retries of one request may wait in total, in milliseconds (a number >= 0).' },
  { name: 'NO_COLOR', does: 'Set to anything: no colour.', precedence: 'FORCE_COLOR wins over it; --no-color wins over both.' },
  { name: 'FORCE_COLOR', does: 'Colour even when stdout is not a terminal; FORCE_COLOR=0 or false: no colour.', precedence: '--no-color wins over it; it wins over NO_COLOR and the terminal test.' },
  { name: 'HOME', does: 'The home directory: ~/.config/email-cli for the config, ~/.cache/email-cli for the compile cache and the ids completion offers.', precedence: 'EMAIL_CONFIG_DIR, XDG_CONFIG_HOME and XDG_CACHE_HOME win over it.' },
  { name: 'XDG_CONFIG_HOME', does: 'The base of the config directory ($XDG_CONFIG_HOME/email-cli).', precedence: 'EMAIL_CONFIG_DIR wins over it; it wins over HOME.' },
  { name: 'XDG_CACHE_HOME', does: "The base of Node's compile cache and of the ids completion offers ($XDG_CACHE_HOME/email-cli); an absolute path only.", precedence: 'It wins over HOME.' },
  { name: 'XDG_STATE_HOME', does: "Where `subscribers import` keeps its journal when the input's folder cannot be written ($XDG_STATE_HOME/email-cli/import-journals, else ~/.local/state/…); an absolute path only.", precedence: 'It wins over HOME; --journal wins over both.' },
  { name: 'BROWSER', does: 'The program that opens a page for `--web` and `campaigns open` (split into words as a shell would, never run through one).', precedence: 'It wins over xdg-open, open and rundll32.' },
  { name: 'DISPLAY', does: 'On Linux, a display to open a page on; without it (and without WAYLAND_DISPLAY or BROWSER), `--web` prints the URL.' },
  { name: 'WAYLAND_DISPLAY', does: 'On Linux, as DISPLAY.' },
  { name: 'CI', does: 'Set: `--web` prints the URL instead of opening a browser (unless BROWSER is set).' },
  { name: 'SSH_CONNECTION', does: 'Set (an SSH session): `--web` prints the URL instead of opening a browser on the remote machine (unless BROWSER is set).' },
  { name: 'SSH_TTY', does: 'As SSH_CONNECTION.' },
  { name: 'XDG_RUNTIME_DIR', does: "Where the session bus is looked for ($XDG_RUNTIME_DIR/bus) before the system keychain is tried on Linux." },
  { name: 'DBUS_SESSION_BUS_ADDRESS', does: 'The session bus of the system keychain on Linux; with neither it nor $XDG_RUNTIME_DIR/bus, keys are not stored in the keychain.' },
  { name: 'APPDATA', does: 'On Windows, the base of the config directory (%APPDATA%\\email-cli).', precedence: 'EMAIL_CONFIG_DIR wins over it.' },
  { name: 'LOCALAPPDATA', does: "On Windows, the base of Node's compile cache and of the ids completion offers." },
  { name: 'TMPDIR', does: 'Where `subscribers import` copies standard input or a pipe it must read twice (os.tmpdir()).' },
  { name: 'NODE_DISABLE_COMPILE_CACHE', does: "Set (to anything but 0): Node's compile cache is not used; the program is compiled on every run." },
  { name: 'NODE_COMPILE_CACHE', does: "Node's own compile cache directory: when set, the tool leaves the cache to it.", precedence: 'Wins over the cache directory the tool would choose.' },
  { name: 'NODE_EXTRA_CA_CERTS', does: "Node's own: a file of extra certificate authorities to trust (a network that inspects TLS with its own CA)." },
];
