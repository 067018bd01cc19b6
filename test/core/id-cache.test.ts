// The id cache of completion (src/core/id-cache.ts): whose ids a file holds
// must be what a command would use, by the one resolver's rules
// (src/core/settings.ts), without reading the key.
import { chmodSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openConfig } from '../../src/core/config.js';
import { cacheIdentity } from '../../src/core/id-cache.js';
import { resolveSettings } from '../../src/core/settings.js';
import { tempConfigDir } from '../helpers/cli.js';

describe('cacheIdentity', () => {
  it('names the profile and base URL a command would use, whichever wins', async () => {
    const dir = tempConfigDir();
    await (await openConfig({ EMAIL_CONFIG_DIR: dir })).write({
      defaultProfile: 'prod',
      profiles: { prod: { baseUrl: 'https://a.example.com/', apiKey: 'k1' }, staging: { baseUrl: 'https://b.example.com/v1', apiKey: 'k2' } },
    });
    const cases: [env: Record<string, string>, profileFlag?: string, baseUrlFlag?: string][] = [
      [{}],
      [{}, 'staging'],
      [{ EMAIL_PROFILE: 'staging' }],
      [{ EMAIL_PROFILE: 'staging' }, 'prod'],
      [{ EMAIL_BASE_URL: 'https://c.example.com' }],
      [{}, 'staging', 'https://d.example.com'],
      [{ EMAIL_API_KEY: 'k', EMAIL_BASE_URL: 'https://e.example.com' }],
      [{ EMAIL_API_KEY: 'k' }],
    ];
    for (const [extra, profileFlag, baseUrlFlag] of cases) {
      const env = { EMAIL_CONFIG_DIR: dir, ...extra };
      const settings = await resolveSettings({ env, profileFlag, baseUrlFlag, insecureHttp: false });
      const expected = { profile: settings.apiKey?.origin.kind === 'env' ? '' : settings.profile.value, baseUrl: settings.baseUrl!.value.replace(/\/+$/, '') };
      expect(cacheIdentity(env, profileFlag, baseUrlFlag), JSON.stringify([extra, profileFlag, baseUrlFlag])).toEqual(expected);
    }
  });

  it('is none without a base URL, or with a config it cannot read', () => {
    expect(cacheIdentity({ EMAIL_CONFIG_DIR: tempConfigDir() })).toBeUndefined();
    expect(cacheIdentity({ EMAIL_CONFIG_DIR: '/dev/null/nowhere', EMAIL_PROFILE: 'x' })).toBeUndefined();
  });

  it.skipIf(process.platform === 'win32')('is none with a config directory the commands refuse (others can write to it)', async () => {
    const dir = tempConfigDir();
    await (await openConfig({ EMAIL_CONFIG_DIR: dir })).write({ defaultProfile: 'prod', profiles: { prod: { baseUrl: 'https://a.example.com', apiKey: 'k1' } } });
    expect(cacheIdentity({ EMAIL_CONFIG_DIR: dir })).toBeDefined();
    chmodSync(dir, 0o777);
    expect(cacheIdentity({ EMAIL_CONFIG_DIR: dir })).toBeUndefined();
  });
});
