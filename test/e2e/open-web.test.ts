// `--web` and `campaigns open` (CLI.md "help topics, config, pages"): bin/email
// against the sandbox with a fake $BROWSER, a script that records its argv to
// a file, so what was opened (and that it was given as one argument, never
// through a shell) is read back. A service that answers a URL that is not
// http(s) is played by the scripted server.
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli } from '../helpers/cli.js';
import { serve } from '../helpers/scripted-server.js';
import { waitUntil } from '../helpers/webhooks.js';

const SENT = 'c0000000-0000-4000-8000-000000000002';
const SCHEDULED = 'c0000000-0000-4000-8000-000000000011';
const DRAFT = 'c0000000-0000-4000-8000-000000000021';
const SMART_EMAIL = '5a000000-0000-4000-8000-000000000001';
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.stop());

/** A fake browser: `$BROWSER` is `<script> --new-window`, and the script writes each argument on its own line. */
function fakeBrowser() {
  const dir = mkdtempSync(join(tmpdir(), 'email-browser-'));
  const record = join(dir, 'argv.txt');
  const script = join(dir, 'browser');
  writeFileSync(script, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${record}'\n`);
  chmodSync(script, 0o755);
  return { record, browser: `'${script}' --new-window` };
}

async function opened(record: string): Promise<string[]> {
  await waitUntil(() => existsSync(record) && readFileSync(record, 'utf8').endsWith('\n'), 'the browser to be started');
  return readFileSync(record, 'utf8').trimEnd().split('\n');
}

/** A service whose one sent campaign has `url` for its web version (and nothing scheduled). */
function serveSentCampaign(url: string) {
  return serve((call) => {
    if (call.url.startsWith('/email/clients/scheduled')) return { status: 200, body: [] };
    if (call.url.startsWith('/email/clients/campaigns')) return { status: 200, body: [{ CampaignID: SENT, Name: 'Sent', WebVersionURL: url }] };
    return undefined;
  });
}

const env = (extra: Record<string, string | undefined>) => ({ EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey, ...extra });

describe('opening a record\'s page', () => {
  it('campaigns summary --web opens WebVersionURL with $BROWSER and its arguments', async () => {
    const b = fakeBrowser();
    const r = await spawnCli(['campaigns', 'summary', SENT, '--web'], { env: env({ BROWSER: b.browser }) });
    expect(r.code, r.stderr).toBe(0);
    expect(await opened(b.record)).toEqual(['--new-window', `https://campaigns.sandbox.invalid/web/${SENT}`]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`https://campaigns.sandbox.invalid/web/${SENT}`);
  });

  it('campaigns summary --web on a scheduled campaign opens its preview, as campaigns open does', async () => {
    const b = fakeBrowser();
    const r = await spawnCli(['campaigns', 'summary', SCHEDULED, '--web'], { env: env({ BROWSER: b.browser }) });
    expect(r.code, r.stderr).toBe(0);
    expect(await opened(b.record)).toEqual(['--new-window', `https://campaigns.sandbox.invalid/preview/${SCHEDULED}`]);
  });

  it('transactional get --web opens Properties.HtmlPreviewUrl', async () => {
    const b = fakeBrowser();
    const r = await spawnCli(['transactional', 'get', SMART_EMAIL, '--web'], { env: env({ BROWSER: b.browser }) });
    expect(r.code, r.stderr).toBe(0);
    expect(await opened(b.record)).toEqual(['--new-window', `https://transactional.sandbox.invalid/preview/${SMART_EMAIL}/html`]);
  });

  it('campaigns open finds a sent campaign\'s web version and a scheduled one\'s preview', async () => {
    const sent = fakeBrowser();
    const a = await spawnCli(['campaigns', 'open', SENT], { env: env({ BROWSER: sent.browser }) });
    expect(a.code, a.stderr).toBe(0);
    expect((await opened(sent.record))[1]).toBe(`https://campaigns.sandbox.invalid/web/${SENT}`);
    const scheduled = fakeBrowser();
    const b = await spawnCli(['campaigns', 'open', SCHEDULED], { env: env({ BROWSER: scheduled.browser }) });
    expect(b.code, b.stderr).toBe(0);
    expect((await opened(scheduled.record))[1]).toBe(`https://campaigns.sandbox.invalid/preview/${SCHEDULED}`);
  });

  it('campaigns open on a draft says it has no page (exit 1) and opens nothing', async () => {
    const b = fakeBrowser();
    const r = await spawnCli(['campaigns', 'open', DRAFT], { env: env({ BROWSER: b.browser }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/neither sent nor scheduled/);
    expect(existsSync(b.record)).toBe(false);
  });

  it('with no display and no $BROWSER, prints the URL on stdout and says why on stderr', async () => {
    const r = await spawnCli(['campaigns', 'open', SENT], { env: env({ BROWSER: undefined, DISPLAY: undefined, WAYLAND_DISPLAY: undefined }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`https://campaigns.sandbox.invalid/web/${SENT}\n`);
    expect(r.stderr).toMatch(/no display/i);
  });

  it('a page URL that is not http(s) is refused (exit 1), naming the field, and nothing is opened', async () => {
    const server = await serveSentCampaign('file:///etc/passwd');
    try {
      const b = fakeBrowser();
      const r = await spawnCli(['campaigns', 'summary', SENT, '--web'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k', BROWSER: b.browser } });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/WebVersionURL.*http/);
      expect(r.stdout).toBe('');
      expect(existsSync(b.record)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('a URL with shell metacharacters reaches the browser as one argument, run by no shell', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-inject-'));
    const url = `https://pages.example/a?x=$(touch ${dir}/pwned)&y=\`touch ${dir}/pwned2\`;b`;
    const server = await serveSentCampaign(url);
    try {
      const b = fakeBrowser();
      const r = await spawnCli(['campaigns', 'summary', SENT, '--web'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k', BROWSER: b.browser } });
      expect(r.code, r.stderr).toBe(0);
      const argv = await opened(b.record);
      expect(argv).toHaveLength(2);
      expect(argv[1]).toBe(new URL(url).href);
      expect(existsSync(join(dir, 'pwned'))).toBe(false);
      expect(existsSync(join(dir, 'pwned2'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('a URL that holds the key, in any form, is never handed to the browser: printed masked, and why (issue 33.6)', async () => {
    const key = 'sk_live_4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e';
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
    const urls = [
      `https://pages.example/web?key=${key}`,
      `https://pages.example/web?t=${encodeURIComponent(b64(key))}`,
      `https://pages.example/web/${b64(`user:${key}`).replace(/=+$/, '').replace(/\//g, '_').replace(/\+/g, '-')}/view`,
      `https://pages.example/web?auth=${encodeURIComponent(`Basic ${b64(`${key}:x`)}`)}`,
    ];
    for (const url of urls) {
      const server = await serveSentCampaign(url);
      try {
        const b = fakeBrowser();
        const r = await spawnCli(['campaigns', 'summary', SENT, '--web'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: key, BROWSER: b.browser } });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout, url).toMatch(/^https:\/\/pages\.example\/web.*\*\*\*/);
        expect(r.stderr).toMatch(/not opened in a browser: the page's URL holds your API key/i);
        // A browser started would have written its argv by now.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(existsSync(b.record), url).toBe(false);
      } finally {
        await server.close();
      }
    }
  });
});
