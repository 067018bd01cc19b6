// Pure tests of the campaign and template content checks, plus the loopback-only
// content reader (a real HTTP server on 127.0.0.1; file: URLs are never read).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCampaignHtml } from '../../src/sandbox/content/campaign-html.js';
import { fetchLocalContent, isContentUrl, isLoopbackUrl } from '../../src/sandbox/content/fetch-content.js';
import { MAX_LINK_LENGTH } from '../../src/sandbox/content/links.js';
import { checkTemplateHtml } from '../../src/sandbox/content/template-html.js';
import { missingFromZip, zipEntryNames } from '../../src/sandbox/content/zip-files.js';
import { zipOf } from '../helpers/content-fixtures.js';

const codes = (problems: { code: number }[]) => problems.map((p) => p.code);
const firstCampaignCode = (html: string) => checkCampaignHtml(html)[0]?.code;
const templateCodes = (html: string) => codes(checkTemplateHtml(html));

const GOOD_CAMPAIGN = '<html><body><p>Hello</p><unsubscribe>Unsubscribe</unsubscribe></body></html>';

describe('campaign HTML checks', () => {
  it('passes ordinary HTML with a single-click unsubscribe link', () => {
    expect(checkCampaignHtml(GOOD_CAMPAIGN)).toEqual([]);
  });

  it.each([
    ['not HTML at all', 'just some words', 311],
    ['an empty document', '   ', 311],
    ['an event-handler attribute', '<p onclick="steal()">x</p>', 311],
    ['a javascript: link', '<a href="javascript:alert(1)">x</a>', 311],
    ['Flash by type', '<object type="application/x-shockwave-flash" data="m.swf"></object>', 4201],
    ['Flash by embed src', '<embed src="movie.swf?x=1">', 4201],
    ['a script element', '<p>x</p><script>var a = "<unsubscribe>";</script>', 4202],
    ['a Java applet', '<applet code="A.class"></applet>', 4203],
    ['a text-style unsubscribe tag only', '<p>Leave: [unsubscribe]</p>', 318],
    ['unsubscribe text under 3 characters', '<unsubscribe>x</unsubscribe>', 4302],
    ['a link inside the unsubscribe tag', '<unsubscribe><a href="https://e.com">Leave</a></unsubscribe>', 4303],
    ['no closing unsubscribe tag', '<p><unsubscribe>Leave</p>', 4304],
    ['unsubscribe nested in a service tag', '<webversion>View <unsubscribe>Leave</unsubscribe></webversion>', 4306],
    ['unsubscribe nested in a link', '<a href="https://e.com"><unsubscribe>Leave</unsubscribe></a>', 4307],
    ['a link that is not a URL', '<a href="http://exa mple.com/">x</a>', 316],
    ['a link over the length limit', `<a href="https://e.com/${'a'.repeat(MAX_LINK_LENGTH)}">x</a>`, 317],
  ])('reports %s', (_name, html, code) => {
    expect(firstCampaignCode(html)).toBe(code);
  });

  it('ignores tags inside comments and counts entities in the unsubscribe text', () => {
    expect(firstCampaignCode('<p>x</p><!-- <script>no</script> [unsubscribe] -->')).toBeUndefined();
    expect(firstCampaignCode('<unsubscribe>&nbsp;&nbsp;x</unsubscribe>')).toBe(4302);
  });

  it('decodes every character reference, so an escaped javascript: link or a one-character unsubscribe text is seen', () => {
    expect(firstCampaignCode('<a href="javascript&colon;alert(1)">x</a>')).toBe(311);
    expect(firstCampaignCode('<unsubscribe>&hellip;</unsubscribe>')).toBe(4302);
    expect(firstCampaignCode('<unsubscribe>Leave&hellip;</unsubscribe>')).toBeUndefined();
  });

  it('reads tag and attribute names in any case, unquoted values, and raw-text elements as HTML does', () => {
    expect(firstCampaignCode('<P ONCLICK=steal()>x</P>')).toBe(311);
    expect(firstCampaignCode('<EMBED SRC=movie.swf>')).toBe(4201);
    expect(firstCampaignCode('<textarea><script>x</script></textarea><unsubscribe>Leave</unsubscribe>')).toBeUndefined();
    expect(firstCampaignCode('<p>x</p><![CDATA[ <script>no</script> ]]>')).toBeUndefined();
  });

  it('does not take the open attribute for an event handler', () => {
    expect(firstCampaignCode('<details open><summary>More</summary>x</details>')).toBeUndefined();
  });

  it('accepts the text-style tag when a single-click link is also present', () => {
    expect(firstCampaignCode('<p>[unsubscribe]</p><unsubscribe>Leave us</unsubscribe>')).toBeUndefined();
  });
});

const GOOD_TEMPLATE = `<html><body>
<tableofcontents><a href="#">[x]</a></tableofcontents>
<table><repeater>
  <layout label="Article"><tr><td><singleline repeatertitle="true">Title</singleline><multiline>Body</multiline></td></tr></layout>
  <layout label="Photo"><tr><td><img editable width="600" src="images/photo.jpg"><singleline repeatertitle="true">Caption</singleline></td></tr></layout>
</repeater></table>
<unsubscribe>Unsubscribe</unsubscribe>
</body></html>`;

describe('template HTML checks', () => {
  it('passes a template with repeater, labelled layouts, titles and table of contents', () => {
    expect(checkTemplateHtml(GOOD_TEMPLATE)).toEqual([]);
  });

  const u = '<unsubscribe>Unsubscribe</unsubscribe>';
  it.each([
    ['no editable region', `<p>static</p>${u}`, 4101],
    ['no closing repeater tag', `<repeater><singleline>a</singleline>${u}`, 4102],
    ['an editable image without width', `<img editable src="a.png">${u}`, 4103],
    ['no editable region in a repeater', `<singleline>x</singleline><repeater><p>x</p></repeater>${u}`, 4104],
    ['a closing repeater without opening', `<singleline>x</singleline></repeater>${u}`, 4105],
    ['no closing table of contents', `<singleline>x</singleline><tableofcontents><repeater><singleline repeatertitle="true">t</singleline></repeater>${u}`, 4108],
    [
      'a layout without title among titled ones',
      `<tableofcontents></tableofcontents><repeater><layout label="a"><singleline repeatertitle="true">t</singleline></layout><layout label="b"><multiline>m</multiline></layout></repeater>${u}`,
      4109,
    ],
    ['two titles in one layout', `<tableofcontents></tableofcontents><repeater><layout label="a"><singleline repeatertitle="true">t</singleline><singleline repeatertitle="true">u</singleline></layout></repeater>${u}`, 4110],
    ['repeater titles without table of contents', `<repeater><singleline repeatertitle="true">t</singleline></repeater>${u}`, 4111],
    ['a table of contents without repeater', `<singleline>x</singleline><tableofcontents></tableofcontents>${u}`, 4118],
    ['nested repeaters', `<repeater><singleline>x</singleline><repeater><singleline>y</singleline></repeater></repeater>${u}`, 4128],
    ['a table-based repeater with several rows', `<table><repeater><tr><td><singleline>a</singleline></td></tr><tr><td>b</td></tr></repeater></table>${u}`, 4129],
    ['no closing singleline', `<singleline>x${u}`, 4130],
    ['no closing multiline', `<multiline>x${u}`, 4131],
    ['a table of contents and no titled repeater', `<tableofcontents></tableofcontents><repeater><singleline>x</singleline></repeater>${u}`, 4132],
    ['Flash', `<singleline>x</singleline><embed type="application/x-shockwave-flash">${u}`, 4201],
    ['script', `<singleline>x</singleline><script>1</script>${u}`, 4202],
    ['Java', `<singleline>x</singleline><applet code="a"></applet>${u}`, 4203],
    ['no unsubscribe tag', '<singleline>x</singleline>', 4300],
    ['an unsubscribe tag only in a comment', '<singleline>x</singleline><!-- <unsubscribe>Leave</unsubscribe> -->', 4301],
    ['unsubscribe text under 3 characters', '<singleline>x</singleline><unsubscribe>no</unsubscribe>', 4302],
    ['a link in the unsubscribe tag', '<singleline>x</singleline><unsubscribe><a href="x">Leave</a></unsubscribe>', 4303],
    ['no closing unsubscribe tag', '<singleline>x</singleline><unsubscribe>Leave', 4304],
    ['a text unsubscribe tag in the HTML', `<singleline>x</singleline>${u}<p>[unsubscribe]</p>`, 4305],
    ['unsubscribe nested in a service tag', '<multiline>x <unsubscribe>Leave</unsubscribe></multiline>', 4306],
    ['unsubscribe nested in a link', '<singleline>x</singleline><a href="x"><unsubscribe>Leave</unsubscribe></a>', 4307],
    ['a layout outside a repeater', `<layout label="a"><singleline>x</singleline></layout>${u}`, 4401],
    ['no closing layout', `<repeater><layout label="a"><singleline>x</singleline></repeater>${u}`, 4402],
    ['a closing layout without opening', `<repeater><singleline>x</singleline></layout></repeater>${u}`, 4403],
    ['no editable region in a layout', `<repeater><singleline>x</singleline><layout label="a"><p>x</p></layout></repeater>${u}`, 4404],
    ['a table-based layout with several rows', `<table><repeater><layout label="a"><tr><td><singleline>a</singleline></td></tr><tr><td>b</td></tr></layout></repeater></table>${u}`, 4405],
    ['a layout without label', `<repeater><layout><singleline>x</singleline></layout></repeater>${u}`, 4406],
  ])('reports %s', (_name, html, code) => {
    expect(templateCodes(html)).toContain(code);
  });
});

describe('ZIP contents (4350)', () => {
  it('reads entry names from the central directory and finds files the HTML refers to but the ZIP lacks', () => {
    const zip = zipOf(['images/photo.jpg', 'style.css']);
    const names = zipEntryNames(zip)!;
    expect(names).toEqual(['images/photo.jpg', 'style.css']);
    const html = '<img src="images/photo.jpg"><img src="./images/missing.png?v=2"><link href="style.css"><img src="https://cdn.example.com/x.png"><td background="bg.gif">';
    expect(missingFromZip(html, names)).toEqual(['images/missing.png', 'bg.gif']);
    expect(missingFromZip('<img src="a.png">', ['template/a.png'])).toEqual([]);
  });

  it('says when bytes are not a ZIP archive', () => {
    expect(zipEntryNames(Buffer.from('not a zip at all, really not'))).toBeUndefined();
  });
});

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
