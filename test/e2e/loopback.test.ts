// CLI.md "--base-url": `localhost` is loopback and is never looked up in DNS.
// A preload counts the calls of dns.lookup (what net.connect uses unless told
// otherwise) for "localhost" while bin/email talks to the sandbox through it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { useRunningSandbox } from '../helpers/sandbox.js';

const sandbox = useRunningSandbox({ host: '127.0.0.1' }, 'all');

it('talks to http://localhost:<port> without asking the resolver for "localhost"', async () => {
  const preload = join(mkdtempSync(join(tmpdir(), 'email-lookup-')), 'count-lookups.cjs');
  writeFileSync(
    preload,
    `const dns = require('node:dns');
const lookup = dns.lookup;
dns.lookup = function (host, ...rest) {
  if (String(host).toLowerCase() === 'localhost') process.stderr.write('[resolver asked for localhost]\\n');
  return lookup.call(this, host, ...rest);
};
`,
  );
  const port = new URL(sandbox.url).port;
  const before = sandbox.requestCount();
  const r = await spawnCli(['api', '/email/clients/scheduled', '--base-url', `http://localhost:${port}`], {
    env: { EMAIL_API_KEY: sandbox.apiKey, NODE_OPTIONS: `--require ${preload}` },
  });
  expect(r.code, r.stderr).toBe(0);
  expect(sandbox.requestCount()).toBe(before + 1);
  expect(r.stderr).not.toContain('[resolver asked for localhost]');
});
