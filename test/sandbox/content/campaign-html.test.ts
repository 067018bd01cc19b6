// The campaign HTML checks (service-spec.md campaign codes 311, 316-318,
// 42xx, 43xx): pure, on strings.
import { describe, expect, it } from 'vitest';
import { checkCampaignHtml } from '../../../src/sandbox/content/campaign-html.js';
import { MAX_LINK_LENGTH } from '../../../src/sandbox/content/links.js';

const firstCampaignCode = (html: string) => checkCampaignHtml(html)[0]?.code;

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
