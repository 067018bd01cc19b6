// The shared sandbox fixture: a fresh sandbox for each test, stopped after it,
// and a clear error when it is used where no sandbox runs.
import { describe, expect, it } from 'vitest';
import { useFixture, useSandbox } from './sandbox.js';

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
