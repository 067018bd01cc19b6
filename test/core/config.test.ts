import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBaseUrl, openConfig } from '../../src/core/config.js';
import { describeOrigin, resolveCredentials, resolveSettings } from '../../src/core/settings.js';
import { isLoopbackHost } from '../../src/core/loopback.js';
import { AuthError, UsageError } from '../../src/core/errors.js';

function dir() {
  return join(mkdtempSync(join(tmpdir(), 'email-cfg-')), 'nested', 'email-cli');
}

describe('config store', () => {
  it('creates the directory 0700 and the file 0600', async () => {
    const d = dir();
    const store = await openConfig({ EMAIL_CONFIG_DIR: d });
    await store.write({ defaultProfile: 'default', profiles: { default: { baseUrl: 'https://api.example.com', apiKey: 'k1234567' } } });
    expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });
});

describe('credential resolution', () => {
  async function seeded() {
    const d = dir();
    const store = await openConfig({ EMAIL_CONFIG_DIR: d });
    await store.write({
      defaultProfile: 'prod',
      profiles: {
        prod: { baseUrl: 'https://prod.example.com', apiKey: 'prod-key-1234' },
        staging: { baseUrl: 'https://staging.example.com', apiKey: 'stage-key-5678' },
      },
    });
    return d;
  }

  it('uses EMAIL_API_KEY and EMAIL_BASE_URL first, even over --profile', async () => {
    const d = await seeded();
    const c = await resolveCredentials({ env: { EMAIL_CONFIG_DIR: d, EMAIL_API_KEY: 'env-key-9999', EMAIL_BASE_URL: 'https://env.example.com' }, profileFlag: 'staging', insecureHttp: false });
    expect(c).toMatchObject({ apiKey: 'env-key-9999', baseUrl: 'https://env.example.com', keySource: { kind: 'env' }, baseUrlSource: 'env EMAIL_BASE_URL' });
    expect(c.notes[0]).toMatch(/profile is not used/);
  });

  // Issue 20.10: EMAIL_API_KEY alone said "no base URL" beside a profile that has one, while
  // EMAIL_BASE_URL alone borrowed the profile's key. Now each variable sets its half, the
  // profile in effect the other, so either alone works the same way.
  it('EMAIL_API_KEY alone: the key from the environment, the base URL from the profile in effect', async () => {
    const d = await seeded();
    const c = await resolveCredentials({ env: { EMAIL_CONFIG_DIR: d, EMAIL_API_KEY: 'env-key-9999' }, insecureHttp: false });
    expect(c).toMatchObject({ apiKey: 'env-key-9999', keySource: { kind: 'env' }, baseUrl: 'https://prod.example.com', baseUrlSource: 'profile "prod"' });
    const staging = await resolveCredentials({ env: { EMAIL_CONFIG_DIR: d, EMAIL_API_KEY: 'env-key-9999' }, profileFlag: 'staging', insecureHttp: false });
    expect(staging).toMatchObject({ apiKey: 'env-key-9999', baseUrl: 'https://staging.example.com', baseUrlSource: 'profile "staging"' });
  });

  it('EMAIL_BASE_URL alone: the profile\'s key only when it names the profile\'s own service; another is refused, naming both', async () => {
    const d = await seeded();
    const c = await resolveCredentials({ env: { EMAIL_CONFIG_DIR: d, EMAIL_BASE_URL: 'https://PROD.example.com:443/' }, insecureHttp: false });
    expect(c).toMatchObject({ apiKey: 'prod-key-1234', keySource: { kind: 'profile', profile: 'prod' }, baseUrlSource: 'env EMAIL_BASE_URL' });
    for (const input of [{ env: { EMAIL_CONFIG_DIR: d, EMAIL_BASE_URL: 'https://env.example.com' } }, { env: { EMAIL_CONFIG_DIR: d, EMAIL_BASE_URL: 'https://prod.example.com' }, baseUrlFlag: 'https://flag.example.com' }]) {
      const err = await resolveCredentials({ ...input, insecureHttp: false }).catch((e: unknown) => e as any);
      expect(err).toBeInstanceOf(UsageError);
      expect(err.message).toMatch(/^profile "prod"'s key was stored for https:\/\/prod\.example\.com, not for https:\/\/(env|flag)\.example\.com \(from (env EMAIL_BASE_URL|--base-url)\): refusing to send it there$/);
    }
  });

  it('EMAIL_API_KEY alone with no profile: no base URL, naming EMAIL_BASE_URL', async () => {
    const err = await resolveCredentials({ env: { EMAIL_CONFIG_DIR: dir(), EMAIL_API_KEY: 'env-key-9999' }, insecureHttp: false }).catch((e: unknown) => e as any);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(/^no base URL: .*EMAIL_BASE_URL/);
  });

  it('then --profile, then EMAIL_PROFILE, then the default profile', async () => {
    const d = await seeded();
    const byFlag = await resolveCredentials({ env: { EMAIL_CONFIG_DIR: d, EMAIL_PROFILE: 'prod' }, profileFlag: 'staging', insecureHttp: false });
    expect(byFlag).toMatchObject({ apiKey: 'stage-key-5678', keySource: { kind: 'profile', profile: 'staging', chosenBy: 'flag' } });
    const byEnv = await resolveCredentials({ env: { EMAIL_CONFIG_DIR: d, EMAIL_PROFILE: 'staging' }, insecureHttp: false });
    expect(byEnv.keySource).toMatchObject({ profile: 'staging', chosenBy: 'env' });
    const byDefault = await resolveCredentials({ env: { EMAIL_CONFIG_DIR: d }, insecureHttp: false });
    expect(byDefault).toMatchObject({ apiKey: 'prod-key-1234', baseUrl: 'https://prod.example.com', keySource: { chosenBy: 'default' } });
  });

  it('--base-url overrides the profile\'s base URL with the key from EMAIL_API_KEY', async () => {
    const d = await seeded();
    const c = await resolveCredentials({ env: { EMAIL_CONFIG_DIR: d, EMAIL_API_KEY: 'env-key-9999' }, baseUrlFlag: 'http://127.0.0.1:4010', insecureHttp: false });
    expect(c).toMatchObject({ baseUrl: 'http://127.0.0.1:4010', baseUrlSource: '--base-url', apiKey: 'env-key-9999' });
  });

  it('fails as an auth problem when no key is configured, with a hint', async () => {
    const err = await resolveCredentials({ env: { EMAIL_CONFIG_DIR: dir() }, insecureHttp: false }).catch((e: unknown) => e as any);
    expect(err).toBeInstanceOf(AuthError);
    expect(err.exitCode).toBe(4);
    expect(err.hint).toContain('email auth login');
  });
});

describe('every setting with its origin (the one resolver of the commands and doctor)', () => {
  const profiles = { prod: { baseUrl: 'https://prod.example.com', apiKey: 'prod-key-1234' }, bare: { baseUrl: 'https://bare.example.com' } };
  async function seeded() {
    const d = dir();
    await (await openConfig({ EMAIL_CONFIG_DIR: d })).write({ defaultProfile: 'prod', profiles });
    return d;
  }
  // [what is set, env, flags, profile in effect (its origin), key origin, base URL and its origin]
  const cases: [string, Record<string, string>, { profileFlag?: string; baseUrlFlag?: string }, string, string, string | undefined, string | undefined][] = [
    ['nothing set', {}, {}, 'prod (the default profile)', 'profile "prod"', 'https://prod.example.com', 'profile "prod"'],
    // Another service than the profile's: its stored key is not even read (keyBound).
    ['EMAIL_BASE_URL over the profile\'s', { EMAIL_BASE_URL: 'https://env.example.com' }, {}, 'prod (the default profile)', 'none', 'https://env.example.com', 'env EMAIL_BASE_URL'],
    ['a profile without a key, and EMAIL_BASE_URL', { EMAIL_BASE_URL: 'https://env.example.com' }, { profileFlag: 'bare' }, 'bare (--profile)', 'none', 'https://env.example.com', 'env EMAIL_BASE_URL'],
    ['a profile without a key', { EMAIL_PROFILE: 'bare' }, {}, 'bare (env EMAIL_PROFILE)', 'none', 'https://bare.example.com', 'profile "bare"'],
    ['EMAIL_API_KEY alone', { EMAIL_API_KEY: 'env-key-9999', EMAIL_PROFILE: 'bare' }, {}, 'bare (env EMAIL_PROFILE)', 'env EMAIL_API_KEY', 'https://bare.example.com', 'profile "bare"'],
    // Both from the environment: the config is not read, so the stored default is not known either.
    ['both variables', { EMAIL_API_KEY: 'env-key-9999', EMAIL_BASE_URL: 'https://env.example.com' }, {}, 'default (the default profile)', 'env EMAIL_API_KEY', 'https://env.example.com', 'env EMAIL_BASE_URL'],
    ['--base-url over EMAIL_BASE_URL', { EMAIL_BASE_URL: 'https://env.example.com' }, { baseUrlFlag: 'https://flag.example.com' }, 'prod (the default profile)', 'none', 'https://flag.example.com', '--base-url'],
    ['an unknown profile', { EMAIL_PROFILE: 'nope' }, {}, 'nope (env EMAIL_PROFILE)', 'none', undefined, undefined],
  ];
  for (const [what, env, flags, profile, keyOrigin, baseUrl, baseUrlOrigin] of cases) {
    it(what, async () => {
      const s = await resolveSettings({ env: { EMAIL_CONFIG_DIR: await seeded(), ...env }, ...flags, insecureHttp: false });
      expect(`${s.profile.value} (${describeOrigin(s.profile.origin)})`).toBe(profile);
      expect(s.apiKey ? describeOrigin(s.apiKey.origin) : 'none').toBe(keyOrigin);
      expect(s.baseUrl?.value).toBe(baseUrl);
      expect(s.baseUrl && describeOrigin(s.baseUrl.origin)).toBe(baseUrlOrigin);
    });
  }

  it('a profile named by --profile or EMAIL_PROFILE that is not stored is a usage error naming the stored ones; with both variables set it is not consulted', async () => {
    const d = await seeded();
    for (const input of [{ env: { EMAIL_CONFIG_DIR: d, EMAIL_PROFILE: 'nope' } }, { env: { EMAIL_CONFIG_DIR: d, EMAIL_API_KEY: 'env-key-9999' }, profileFlag: 'nope' }]) {
      const err = await resolveCredentials({ ...input, insecureHttp: false }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).message).toMatch(/^no profile named "nope" \((named by EMAIL_PROFILE|given with --profile)\); profiles: prod, bare$/);
    }
    const env = await resolveCredentials({ env: { EMAIL_CONFIG_DIR: d, EMAIL_API_KEY: 'env-key-9999', EMAIL_BASE_URL: 'https://env.example.com' }, profileFlag: 'nope', insecureHttp: false });
    expect(env.notes).toEqual(['EMAIL_API_KEY is set, so the profile is not used']);
  });
});

describe('https rule', () => {
  it('accepts https anywhere and http to loopback', () => {
    expect(checkBaseUrl('https://api.example.com/', false)).toBe('https://api.example.com');
    expect(checkBaseUrl('http://127.0.0.1:4010', false)).toBe('http://127.0.0.1:4010');
    expect(checkBaseUrl('http://localhost:4010', false)).toBe('http://localhost:4010');
    expect(checkBaseUrl('http://[::1]:4010', false)).toBe('http://[::1]:4010');
  });
  it('refuses plain http elsewhere unless --insecure-http', () => {
    expect(() => checkBaseUrl('http://api.example.com', false)).toThrow(UsageError);
    expect(() => checkBaseUrl('http://api.example.com', false)).toThrow(/--insecure-http/);
    expect(checkBaseUrl('http://api.example.com', true)).toBe('http://api.example.com');
  });
  it('counts as loopback only 127.0.0.0/8, ::1 and localhost itself: a *.localhost name would be looked up in DNS', () => {
    expect(isLoopbackHost('127.3.2.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('api.localhost')).toBe(false);
    expect(isLoopbackHost('localhost.example.com')).toBe(false);
    expect(isLoopbackHost('127.0.0.1.example.com')).toBe(false);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
    expect(() => checkBaseUrl('http://api.localhost:4010', false)).toThrow(/refusing plain http:\/\/ to api\.localhost:4010.*--insecure-http/);
    expect(checkBaseUrl('http://api.localhost:4010', true)).toBe('http://api.localhost:4010');
  });
  it('refuses non-URLs and other schemes', () => {
    expect(() => checkBaseUrl('api.example.com', false)).toThrow(/invalid base URL/);
    expect(() => checkBaseUrl('ftp://api.example.com', false)).toThrow(/invalid base URL/);
  });
  it('a base URL without its scheme says to add it, with the URL to give (issue 20.10)', () => {
    const message = (raw: string) => {
      try {
        checkBaseUrl(raw, false);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(message('127.0.0.1:4010')).toBe('invalid base URL from --base-url: "127.0.0.1:4010" has no scheme: add http:// (http://127.0.0.1:4010)');
    // "localhost:4010" parses as a URL whose scheme is "localhost:".
    expect(message('localhost:4010')).toBe('invalid base URL from --base-url: "localhost:4010" has no scheme: add http:// (http://localhost:4010)');
    expect(message('[::1]:4010')).toBe('invalid base URL from --base-url: "[::1]:4010" has no scheme: add http:// (http://[::1]:4010)');
    expect(message('api.example.com/v3')).toBe('invalid base URL from --base-url: "api.example.com/v3" has no scheme: add https:// (https://api.example.com/v3)');
    expect(message('api.example.com:8443')).toBe('invalid base URL from --base-url: "api.example.com:8443" has no scheme: add https:// (https://api.example.com:8443)');
    expect(message('not a url')).toMatch(/^invalid base URL from --base-url: "not a url"$/);
  });
});
