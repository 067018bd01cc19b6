// How the content checks read HTML (src/sandbox/content/markup.ts): tags as
// written, comments set apart, visible text with references decoded.
import { describe, expect, it } from 'vitest';
import { readMarkup, textBetween } from '../../../src/sandbox/content/markup.js';

describe('readMarkup', () => {
  it('gives open and close tags as written, names lower-cased, the first of a repeated attribute winning', () => {
    const { tags } = readMarkup('<P Class="a" class="b" data-X=1>x</p><br/>');
    expect(tags.map((t) => [t.kind, t.name, t.selfClosing])).toEqual([
      ['open', 'p', false],
      ['close', 'p', false],
      ['open', 'br', true],
    ]);
    expect({ ...tags[0]!.attrs }).toEqual({ class: 'a', 'data-x': '1' });
  });

  it('decodes character references in attribute values and in text', () => {
    const markup = readMarkup('<a href="&#106;avascript:x&amp;y">Caf&eacute; &#x41;</a>');
    expect(markup.tags[0]!.attrs.href).toBe('javascript:x&y');
    expect(markup.text).toContain('Café A');
  });

  it('keeps comments and CDATA apart, blanking them in the uncommented source without moving anything', () => {
    const html = '<p>a</p><!-- <script>x</script> --><![CDATA[<b>]]><i>b</i>';
    const markup = readMarkup(html);
    expect(markup.comments).toEqual([' <script>x</script> ', '<b>']);
    expect(markup.tags.map((t) => t.name)).toEqual(['p', 'p', 'i', 'i']);
    expect(markup.uncommented).toHaveLength(html.length);
    expect(markup.uncommented).not.toContain('script');
    expect(markup.uncommented.startsWith('<p>a</p>')).toBe(true);
    expect(markup.uncommented.endsWith('<i>b</i>')).toBe(true);
  });

  it('reads tags inside raw-text elements as text', () => {
    const markup = readMarkup('<script>if (a < b) document.write("<unsubscribe>")</script>');
    expect(markup.tags.map((t) => `${t.kind}:${t.name}`)).toEqual(['open:script', 'close:script']);
    expect(markup.text).toContain('<unsubscribe>');
  });
});

describe('textBetween', () => {
  it('is the visible text between two tags, whitespace collapsed, inner tags as spaces', () => {
    const markup = readMarkup('<unsubscribe>\n  Leave   <b>now</b>\n</unsubscribe>');
    const open = markup.tags[0]!;
    const close = markup.tags[markup.tags.length - 1]!;
    expect(textBetween(markup, open, close)).toBe('Leave now');
  });
});
