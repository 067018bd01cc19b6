// What src/core/settings.ts does, in words: the one description that
// `email help environment`, email(1) and doctor's hints rest on. Each rule
// has an id; test/e2e/resolver-rules.test.ts runs every rule through bin/email
// and fails for a rule it has no run for, so this text cannot drift from the code.

export interface ResolverRule {
  readonly id: string;
  readonly says: string;
}

export const RESOLVER_HEADING = 'Where the key, the base URL and the stored defaults come from:';

export const RESOLVER_RULES: readonly ResolverRule[] = [
  {
    id: 'key-env',
    says: 'The key: EMAIL_API_KEY when it is set, whatever else is: it wins over every profile, even one named by --profile or EMAIL_PROFILE.',
  },
  {
    id: 'key-profile',
    says: 'Else the key of the profile in effect: the one named by --profile, else by EMAIL_PROFILE, else the default profile (`email auth switch`).',
  },
  {
    id: 'base-url',
    says: "The base URL: --base-url, else EMAIL_BASE_URL, else the base URL of the profile in effect. So EMAIL_API_KEY alone is used with the profile's base URL.",
  },
  {
    id: 'key-bound',
    says: "A stored key goes only to the base URL it was stored with: a --base-url or EMAIL_BASE_URL naming another service (the host's case, a default port and a trailing slash aside) is refused, exit 2, naming both, and nothing is sent; with EMAIL_API_KEY set, the key and the base URL are the user's choice.",
  },
  {
    id: 'no-profile',
    says: 'A profile named by --profile or EMAIL_PROFILE that is not stored is exit 2 naming the stored ones, or exit 4 with the login to run when no profile is stored at all. No key from anywhere is exit 4.',
  },
  {
    id: 'defaults',
    says: "The profile's stored defaults (`email config`: list, output, pager) apply only when the service in use is the profile's: not when --base-url or EMAIL_BASE_URL names another. A flag or variable wins over each. A stored output sets stdout's format only: at a terminal, messages on stderr stay words unless --json or -o json|ndjson is typed.",
  },
  {
    id: 'config-read',
    says: 'The config file is read for a key or base URL only when one is to come from it. With both variables set it is still read for the stored defaults, and one that cannot be read or is refused then costs only those defaults (a command that needs one says why).',
  },
  {
    id: 'config-refused',
    says: 'A config directory or file of another user, or that others can write to, or a config file that is a link, is refused and supplies nothing at all: no key, no base URL, no default, no pager.',
  },
  {
    id: 'completion',
    says: 'Completion (TAB, which runs before Enter is pressed) never uses a --base-url typed on the line: it asks where the command would without it, by the rules above.',
  },
];
