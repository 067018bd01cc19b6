// Links imported for click tracking (src/sandbox/content/links.ts): 316 a
// link that is not a URL, 317 a link over the length limit.
import { describe, expect, it } from 'vitest';
import { linkProblems, MAX_LINK_LENGTH } from '../../../src/sandbox/content/links.js';
import { readMarkup } from '../../../src/sandbox/content/markup.js';

const codes = (html: string) => linkProblems(readMarkup(html).tags).map((p) => p.code);

describe('linkProblems', () => {
  it('takes ordinary links, personalisation tags, mailto: and relative links', () => {
    expect(codes('<a href="https://example.com/a?b=1">x</a><a href="[webversion]">v</a><a href="mailto:a@b.c">m</a><a href="/rel">r</a>')).toEqual([]);
  });

  it.each([
    ['a space in the host', '<a href="http://exa mple.com/">x</a>', [316]],
    ['no host', '<area href="https://">', [316]],
    ['exactly the limit', `<a href="https://e.com/${'a'.repeat(MAX_LINK_LENGTH - 'https://e.com/'.length)}">x</a>`, []],
    ['one over the limit', `<a href="https://e.com/${'a'.repeat(MAX_LINK_LENGTH - 'https://e.com/'.length + 1)}">x</a>`, [317]],
    ['both, each once', `<a href="http://a b">x</a><a href="http://c d">y</a><a href="https://e.com/${'a'.repeat(MAX_LINK_LENGTH)}">z</a>`, [316, 317]],
  ])('%s', (_name, html, expected) => {
    expect(codes(html)).toEqual(expected);
  });

  it('names the link and the limit in the messages', () => {
    const problems = linkProblems(readMarkup(`<a href="https://e.com/${'a'.repeat(MAX_LINK_LENGTH)}">z</a><a href="http://a b">x</a>`).tags);
    expect(problems[0]!.message).toContain(`the limit is ${MAX_LINK_LENGTH}`);
    expect(problems[1]!.message).toContain('"http://a b"');
  });
});
