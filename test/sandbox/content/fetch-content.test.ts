// The loopback-only content reader: a real HTTP server on 127.0.0.1; file:
// URLs and other hosts are never read.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchLocalContent, isContentUrl, isLoopbackUrl } from '../../../src/sandbox/content/fetch-content.js';

describe('content reading', () => {
  let server: Server;
  let base: string;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      if (req.url === '/redirect') {
        res.writeHead(302, { Location: 'http://192.0.2.1/elsewhere' });
        res.end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<p>served</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('recognises loopback hosts without resolving names', () => {
    expect(isLoopbackUrl(new URL('http://127.0.0.1/x'))).toBe(true);
    expect(isLoopbackUrl(new URL('http://127.20.30.40/x'))).toBe(true);
    expect(isLoopbackUrl(new URL('http://localhost:8080/x'))).toBe(true);
    expect(isLoopbackUrl(new URL('http://[::1]/x'))).toBe(true);
    expect(isLoopbackUrl(new URL('http://128.0.0.1/x'))).toBe(false);
    expect(isLoopbackUrl(new URL('http://127.0.0.1.example.com/x'))).toBe(false);
    expect(isLoopbackUrl(new URL('https://example.com/x'))).toBe(false);
  });

  it('reads loopback HTTP content, and never a file: URL, existing or not', async () => {
    const served = await fetchLocalContent(`${base}/page.html`);
    expect(served.kind === 'content' && served.bytes.toString()).toBe('<p>served</p>');
    const dir = mkdtempSync(join(tmpdir(), 'html-checks-'));
    writeFileSync(join(dir, 'a.html'), '<p>file</p>');
    const existing = await fetchLocalContent(pathToFileURL(join(dir, 'a.html')).href);
    const missing = await fetchLocalContent(pathToFileURL(join(dir, 'none.html')).href);
    expect(existing).toEqual({ kind: 'unknown', reason: expect.stringMatching(/never fetched/) });
    expect(missing).toEqual(existing);
  });

  it('takes only http(s) URLs with a host as content URLs', () => {
    expect(isContentUrl('https://content.example.com/a.html')).toBe(true);
    expect(isContentUrl('http://127.0.0.1:8080/a.html')).toBe(true);
    for (const url of ['file:///etc/passwd', 'file://localhost/etc/hostname', 'ftp://example.com/a.html', 'data:text/html,x', 'javascript:alert(1)', 'a.html']) {
      expect(isContentUrl(url), url).toBe(false);
    }
  });

  it('never contacts a non-loopback host and does not follow redirects off the machine', async () => {
    // 192.0.2.1 is TEST-NET-1: a fetch would hang or fail, but it must not be tried at all.
    const remote = await fetchLocalContent('http://192.0.2.1/page.html', { timeoutMs: 60_000 });
    expect(remote).toEqual({ kind: 'unknown', reason: expect.stringMatching(/never fetched/) });
    const before = hits;
    const redirected = await fetchLocalContent(`${base}/redirect`);
    expect(redirected.kind).toBe('unknown');
    expect(hits).toBe(before + 1);
  });
});
