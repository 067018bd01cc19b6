// A subprocess test needs the built program: without it the test fails and
// says how to build, never skips.
import { describe, expect, it } from 'vitest';
import { requireBuild } from './cli.js';

describe('requireBuild', () => {
  it('fails naming npm run build when the build is missing', () => {
    expect(() => requireBuild(new URL('../../dist/no-such-file.js', import.meta.url))).toThrow(/dist\/no-such-file\.js is missing: run `npm run build`/);
  });

  it('passes when the build is there (npm test builds first)', () => {
    expect(() => requireBuild()).not.toThrow();
  });
});
