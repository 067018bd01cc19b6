// An HTML document as the content checks see it: the tags as written (open
// and close, none implied), the comments, and the visible text. Read with
// htmlparser2's tokenizer, which follows the HTML rules for raw-text elements
// (script, style, textarea, title, xmp: tags inside them are text), quoted
// and unquoted attributes, and character references.
import { Tokenizer } from 'htmlparser2';

export interface TagToken {
  kind: 'open' | 'close';
  /** Lower-cased element name. */
  name: string;
  /** Lower-cased attribute names (the first of a repeated one wins), values with character references decoded. */
  attrs: Record<string, string>;
  /** Written `<name … />`. */
  selfClosing: boolean;
  /** Where the tag sits in `Markup.text`: the text before it has this length. */
  textAt: number;
}

export interface Markup {
  tags: TagToken[];
  /** Text of each comment (CDATA sections included: HTML reads them as comments). */
  comments: string[];
  /** The source with comments blanked out (same length). */
  uncommented: string;
  /** Text content with character references decoded; every tag stands as one space. */
  text: string;
}

/** The visible text between two tags of the same markup, whitespace collapsed. */
export function textBetween(markup: Markup, open: TagToken, close: TagToken): string {
  return markup.text.slice(open.textAt + 1, close.textAt).replace(/\s+/g, ' ').trim();
}

export function readMarkup(html: string): Markup {
  const tags: TagToken[] = [];
  const comments: string[] = [];
  /** [start, end) of each comment in the source. */
  const blanks: [number, number][] = [];
  let text = '';
  let tag: TagToken | undefined;
  let attribute = '';
  let value = '';

  const endTag = (selfClosing: boolean) => {
    if (!tag) return;
    tag.selfClosing = selfClosing;
    tags.push(tag);
    tag = undefined;
    text += ' ';
  };
  const comment = (start: number, endIndex: number, endOffset: number) => {
    comments.push(html.slice(start, endIndex - endOffset));
    // The opening `<!--`, `<![CDATA[` or `</` sits just before `start`; `endIndex` is the closing `>` unless the comment runs to the end.
    blanks.push([html.lastIndexOf('<', start - 1), html[endIndex] === '>' ? endIndex + 1 : endIndex]);
    text += ' ';
  };

  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, endIndex) {
        tag = { kind: 'open', name: html.slice(start, endIndex).toLowerCase(), attrs: Object.create(null) as Record<string, string>, selfClosing: false, textAt: text.length };
      },
      onattribname(start, endIndex) {
        attribute = html.slice(start, endIndex).toLowerCase();
        value = '';
      },
      onattribdata(start, endIndex) {
        value += html.slice(start, endIndex);
      },
      onattribentity(codepoint) {
        value += String.fromCodePoint(codepoint);
      },
      onattribend() {
        if (tag && !Object.hasOwn(tag.attrs, attribute)) tag.attrs[attribute] = value;
      },
      onopentagend: () => endTag(false),
      onselfclosingtag: () => endTag(true),
      onclosetag(start, endIndex) {
        tags.push({ kind: 'close', name: html.slice(start, endIndex).toLowerCase(), attrs: Object.create(null) as Record<string, string>, selfClosing: false, textAt: text.length });
        text += ' ';
      },
      ontext(start, endIndex) {
        text += html.slice(start, endIndex);
      },
      ontextentity(codepoint) {
        text += String.fromCodePoint(codepoint);
      },
      oncomment: comment,
      oncdata: comment,
      ondeclaration() {
        text += ' ';
      },
      onprocessinginstruction() {
        text += ' ';
      },
      onend() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();

  let uncommented = '';
  let copied = 0;
  for (const [start, end] of blanks) {
    uncommented += html.slice(copied, start) + ' '.repeat(end - start);
    copied = end;
  }
  uncommented += html.slice(copied);
  return { tags, comments, uncommented, text };
}
