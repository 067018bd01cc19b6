// Create template over HTTP (service-spec.md "Template (create request)",
// template codes): request checks, and content checks when the HTML page and
// ZIP file are served on loopback.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentServer, zipOf, type ContentServer } from '../../helpers/content-fixtures.js';
import { useSandbox } from '../../helpers/sandbox.js';

let content: ContentServer;
beforeAll(async () => {
  content = await startContentServer();
});
afterAll(() => content.close());

const c = useSandbox();

function expectCoded(answer: { status: number; body: any; text: string }, code: number) {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body).toMatchObject({ Code: code, Message: expect.any(String) });
}

const template = (extra: Record<string, unknown> = {}) => ({
  Name: 'Monthly',
  // Non-loopback URLs: never fetched, so no content checks.
  HtmlPageURL: 'https://content.example.com/template.html',
  ZipFileURL: 'https://content.example.com/template.zip',
  ...extra,
});
const createTemplate = (extra: Record<string, unknown> = {}) => c.call('POST', '/email/templates', template(extra));

const GOOD_HTML = `<html><body>
<table><repeater><layout label="Story"><tr><td><singleline>Title</singleline><img editable width="600" src="images/hero.jpg"></td></tr></layout></repeater></table>
<unsubscribe>Unsubscribe</unsubscribe>
</body></html>`;

describe('create template', () => {
  it('refuses file: URLs (4005 for the page, 4006 for the ZIP) the same way whether or not the file exists', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'template-files-'));
    writeFileSync(join(dir, 'page.html'), '<p>no editable region, no unsubscribe</p>'); // read, it would give 41xx
    const existing = pathToFileURL(join(dir, 'page.html')).href;
    const missing = pathToFileURL(join(dir, 'none.html')).href;
    const pages = [await createTemplate({ HtmlPageURL: existing }), await createTemplate({ HtmlPageURL: missing })];
    expectCoded(pages[0]!, 4005);
    expect(pages[1]!.text).toBe(pages[0]!.text);
    const zips = [await createTemplate({ ZipFileURL: existing }), await createTemplate({ ZipFileURL: missing })];
    expectCoded(zips[0]!, 4006);
    expect(zips[1]!.text).toBe(zips[0]!.text);
  });

  it('answers 201 with the template id as a bare JSON string and stores it', async () => {
    const answer = await createTemplate();
    expect(answer.status).toBe(201);
    expect(answer.text).toMatch(/^"[0-9a-f-]{36}"$/);
    expect(c.sandbox.state().templates[answer.body]).toMatchObject({ Name: 'Monthly', HtmlPageURL: 'https://content.example.com/template.html' });
  });

  it.each([
    [4002, 'no name', { Name: undefined }],
    [4002, 'a blank name', { Name: '  ' }],
    [4003, 'a name with angle brackets', { Name: '<b>Monthly</b>' }],
    [4003, 'a name over 100 characters', { Name: 'n'.repeat(101) }],
    [4003, 'a name that is not a string', { Name: 42 }],
    [4004, 'no HTML page URL', { HtmlPageURL: '' }],
    [4005, 'an invalid HTML page URL', { HtmlPageURL: 'template.html' }],
    [4006, 'no ZIP file URL', { ZipFileURL: undefined }],
    [4006, 'an invalid ZIP file URL', { ZipFileURL: 'ftp//nowhere' }],
  ])('gives %i for %s', async (code, _name, extra) => {
    expectCoded(await createTemplate(extra), code);
    expect(Object.keys(c.sandbox.state().templates)).toHaveLength(0);
  });

  it('accepts good loopback content whose ZIP holds every referenced file', async () => {
    const html = content.put('/good/template.html', GOOD_HTML);
    const zip = content.put('/good/template.zip', zipOf(['images/hero.jpg']));
    const answer = await createTemplate({ HtmlPageURL: html, ZipFileURL: zip });
    expect(answer.status, answer.text).toBe(201);
  });

  it('gives 4350 naming the files the ZIP lacks', async () => {
    const html = content.put('/missing/template.html', GOOD_HTML);
    const zip = content.put('/missing/template.zip', zipOf(['other.png']));
    const answer = await createTemplate({ HtmlPageURL: html, ZipFileURL: zip });
    expectCoded(answer, 4350);
    expect(answer.body.Message).toContain('images/hero.jpg');
  });

  it('gives 4006 when the loopback ZIP URL gives something that is not a ZIP archive', async () => {
    const html = content.put('/notzip/template.html', GOOD_HTML);
    const zip = content.put('/notzip/template.zip', 'this is text');
    expectCoded(await createTemplate({ HtmlPageURL: html, ZipFileURL: zip }), 4006);
  });

  const u = '<unsubscribe>Unsubscribe</unsubscribe>';
  it.each([
    [4101, `<p>static</p>${u}`],
    [4102, `<repeater><singleline>a</singleline>${u}`],
    [4103, `<img editable src="a.png">${u}`],
    [4104, `<singleline>x</singleline><repeater><p>x</p></repeater>${u}`],
    [4105, `<singleline>x</singleline></repeater>${u}`],
    [4108, `<tableofcontents><repeater><singleline repeatertitle="true">t</singleline></repeater>${u}`],
    [4109, `<tableofcontents></tableofcontents><repeater><layout label="a"><singleline repeatertitle="true">t</singleline></layout><layout label="b"><multiline>m</multiline></layout></repeater>${u}`],
    [4110, `<tableofcontents></tableofcontents><repeater><layout label="a"><singleline repeatertitle="true">t</singleline><singleline repeatertitle="true">u</singleline></layout></repeater>${u}`],
    [4111, `<repeater><singleline repeatertitle="true">t</singleline></repeater>${u}`],
    [4118, `<singleline>x</singleline><tableofcontents></tableofcontents>${u}`],
    [4128, `<repeater><singleline>x</singleline><repeater><singleline>y</singleline></repeater></repeater>${u}`],
    [4129, `<table><repeater><tr><td><singleline>a</singleline></td></tr><tr><td>b</td></tr></repeater></table>${u}`],
    [4130, `<singleline>x${u}`],
    [4131, `<multiline>x${u}`],
    [4132, `<tableofcontents></tableofcontents><repeater><singleline>x</singleline></repeater>${u}`],
    [4201, `<singleline>x</singleline><embed src="intro.swf">${u}`],
    [4202, `<singleline>x</singleline><script>1</script>${u}`],
    [4203, `<singleline>x</singleline><applet code="A.class"></applet>${u}`],
    [4300, '<singleline>x</singleline>'],
    [4301, '<singleline>x</singleline><!-- <unsubscribe>Leave</unsubscribe> -->'],
    [4302, '<singleline>x</singleline><unsubscribe>no</unsubscribe>'],
    [4303, '<singleline>x</singleline><unsubscribe><a href="x">Leave</a></unsubscribe>'],
    [4304, '<singleline>x</singleline><unsubscribe>Leave'],
    [4305, `<singleline>x</singleline>${u}<p>[unsubscribe]</p>`],
    [4306, '<multiline>x <unsubscribe>Leave</unsubscribe></multiline>'],
    [4307, '<singleline>x</singleline><a href="x"><unsubscribe>Leave</unsubscribe></a>'],
    [4401, `<layout label="a"><singleline>x</singleline></layout>${u}`],
    [4402, `<repeater><layout label="a"><singleline>x</singleline></repeater>${u}`],
    [4403, `<repeater><singleline>x</singleline></layout></repeater>${u}`],
    [4404, `<repeater><singleline>x</singleline><layout label="a"><p>x</p></layout></repeater>${u}`],
    [4405, `<table><repeater><layout label="a"><tr><td><singleline>a</singleline></td></tr><tr><td>b</td></tr></layout></repeater></table>${u}`],
    [4406, `<repeater><layout><singleline>x</singleline></layout></repeater>${u}`],
  ])('gives %i for loopback HTML with that problem', async (code, html) => {
    const url = content.put(`/t${code}.html`, html);
    expectCoded(await createTemplate({ HtmlPageURL: url }), code);
  });
});
