// The template HTML checks (service-spec.md template codes 41xx-44xx): pure, on strings.
import { describe, expect, it } from 'vitest';
import { checkTemplateHtml } from '../../../src/sandbox/content/template-html.js';

const codes = (problems: { code: number }[]) => problems.map((p) => p.code);
const templateCodes = (html: string) => codes(checkTemplateHtml(html));

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
