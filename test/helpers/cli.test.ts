// A subprocess test needs the built program: without it the test fails and
// says how to build, never skips. Its runs keep their caches out of the
// developer's home.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userCacheDir } from '../../src/core/id-cache.js';
import { SEED_LIST_IDS, startSandbox } from '../../src/sandbox/index.js';
import { requireBuild, spawnCli } from './cli.js';

describe('requireBuild', () => {
  it('fails naming npm run build when the build is missing', () => {
    expect(() => requireBuild(new URL('../../dist/no-such-file.js', import.meta.url))).toThrow(/dist\/no-such-file\.js is missing: run `npm run build`/);
  });

  it('passes when the build is there (npm test builds first)', () => {
    expect(() => requireBuild()).not.toThrow();
  });
});

describe('spawnCli', () => {
  it('a run that ends without reading the stdin it was given is its outcome, not an EPIPE in the test process', async () => {
    // More than a pipe holds: the writes still pending when the command exits fail with EPIPE.
    const r = await spawnCli(['--version'], { stdin: 'x'.repeat(4 * 1024 * 1024) });
    expect(r).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
    // An 'error' event with no listener would be thrown on a later tick.
    await new Promise((resolve) => setImmediate(resolve));
  });

  it("remembers the lists a run used in a cache of the tests' own, never in the real ~/.cache/email-cli/completion", async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
      const started = Date.now() - 1000;
      const add = ['subscribers', 'add', '--list', SEED_LIST_IDS.customers, '--email', 'cache@example.com', '--name', 'Cache', '--consent', 'yes'];
      const r = await spawnCli(add, { env });
      expect(r.code, r.stderr).toBe(0);
      // Remembered: the next run offers the list, from the same private cache.
      expect((await spawnCli(['__ids', 'list'], { env })).stdout.trim().split('\n')).toContain(SEED_LIST_IDS.customers);
      // The file such a run writes, learnt from a run given a cache home of its own.
      const elsewhere = mkdtempSync(join(tmpdir(), 'email-test-xdg-'));
      expect((await spawnCli(add, { env: { ...env, XDG_CACHE_HOME: elsewhere } })).code).toBe(0);
      const [file, ...more] = readdirSync(join(elsewhere, 'email-cli', 'completion'));
      expect(file).toBeDefined();
      expect(more).toEqual([]);
      // Not in the developer's cache (an older file of the same name is another run's, on the same port long ago).
      const real = join(userCacheDir(process.env)!, 'completion', file!);
      const written = statSync(real, { throwIfNoEntry: false });
      expect(written && written.mtimeMs >= started, real).toBeFalsy();
    } finally {
      await sandbox.stop();
    }
  });
});
