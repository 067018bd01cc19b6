// The <unsubscribe> tag's rules (src/sandbox/content/unsubscribe-tag.ts):
// 4302 short text, 4303 a link inside, 4304 unclosed, 4306 inside a service
// tag, 4307 inside a link (service-spec.md "Coded errors by area").
import { describe, expect, it } from 'vitest';
import { readMarkup } from '../../../src/sandbox/content/markup.js';
import { unsubscribeProblems } from '../../../src/sandbox/content/unsubscribe-tag.js';

const check = (html: string) => {
  const found = unsubscribeProblems(readMarkup(html));
  return { codes: found.problems.map((p) => p.code), count: found.count };
};

describe('unsubscribeProblems', () => {
  it('finds nothing wrong in a well-formed tag, and counts it', () => {
    expect(check('<p><unsubscribe>Unsubscribe</unsubscribe></p>')).toEqual({ codes: [], count: 1 });
    expect(check('<p>no tag</p>')).toEqual({ codes: [], count: 0 });
  });

  it.each([
    ['text under 3 visible characters (tags and spaces do not count)', '<unsubscribe> <b>x</b> </unsubscribe>', [4302]],
    ['a link inside', '<unsubscribe><a href="https://e.com">Leave</a></unsubscribe>', [4303]],
    ['a second tag opened before the first closed', '<unsubscribe>Leave<unsubscribe>Leave</unsubscribe>', [4304]],
    ['no closing tag at the end', '<unsubscribe>Leave', [4304]],
    ['inside a service tag', '<repeater><layout label="x"><unsubscribe>Leave</unsubscribe></layout></repeater>', [4306]],
    ['inside a link', '<a href="https://e.com"><unsubscribe>Leave</unsubscribe></a>', [4307]],
  ])('reports %s', (_name, html, expected) => {
    expect(check(html).codes).toEqual(expected);
  });

  it('is outside a service tag or link once it has closed', () => {
    expect(check('<webversion>View</webversion><a href="https://e.com">x</a><unsubscribe>Leave</unsubscribe>').codes).toEqual([]);
  });

  it('reports each code once, whatever the number of tags', () => {
    expect(check('<unsubscribe>x</unsubscribe><unsubscribe>y</unsubscribe>')).toEqual({ codes: [4302], count: 2 });
  });
});
