// The shared sandbox fixture: a fresh sandbox for each test, stopped after it,
// and a clear error when it is used where no sandbox runs.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sandboxPerTest, useFixture, useSandbox } from './sandbox.js';
import { writeFile } from './import-files.js';

describe('useSandbox', () => {
  const c = useSandbox();
  const urls: string[] = [];

  it('runs a sandbox for the test', async () => {
    urls.push(c.sandbox.url);
    expect((await c.call('GET', '/email/clients/listsforemail?email=ada@example.com')).status).toBe(200);
  });

  it('gives the next test a new one and has stopped the last', async () => {
    urls.push(c.sandbox.url);
    expect(urls[1]).not.toBe(urls[0]);
    await expect(fetch(`${urls[0]}/email/clients/listsforemail?email=ada@example.com`)).rejects.toThrow();
  });
});

describe('sandboxPerTest', () => {
  const t = sandboxPerTest();
  const seen: { url: string; dir: string }[] = [];

  it('gives a test its sandbox, its directory, and an env pointing email at them', async () => {
    seen.push({ url: t.sandbox.url, dir: t.dir });
    writeFile(t.dir, 'a.csv', 'email\n');
    expect(t.env).toMatchObject({ EMAIL_BASE_URL: t.sandbox.url, EMAIL_API_KEY: t.sandbox.apiKey });
    const r = await t.email(['campaigns', 'sent', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(t.sandbox.requestCount()).toBe(1);
  });

  it('gives the next test new ones, and restart() moves env to the new sandbox', async () => {
    expect(t.sandbox.url).not.toBe(seen[0]!.url);
    expect(readdirSync(t.dir)).toEqual([]);
    await expect(fetch(`${seen[0]!.url}/email/clients/listsforemail?email=ada@example.com`)).rejects.toThrow();
    const before = t.sandbox.url;
    const slow = await t.restart({ latencyMs: 1 });
    expect(slow.url).not.toBe(before);
    expect(t.sandbox).toBe(slow);
    expect(t.env.EMAIL_BASE_URL).toBe(slow.url);
    await expect(fetch(`${before}/email/clients/listsforemail?email=ada@example.com`)).rejects.toThrow();
  });
});

describe('useFixture', () => {
  let reached: unknown;
  const fixture = useFixture(async () => ({ n: 1 }), async () => undefined, 'all');
  try {
    reached = fixture.n;
  } catch (error) {
    reached = error;
  }

  it('refuses to be read outside a test or hook, naming what was read', () => {
    expect(String(reached)).toMatch(/the fixture is not running: use it inside a test or hook \(read n\)/);
    expect(fixture.n).toBe(1);
  });
});
