// Content checks of campaign and template HTML (service-spec.md "Coded errors
// by area": draft campaign creation 311, 316-318, 4201-4203, 4302-4307;
// templates 41xx, 42xx, 43xx, 44xx), and the one way the sandbox reads content
// from a URL.
//
// The spec names the service's template-language tags only by what the codes
// say. The sandbox reads them as Campaign-Monitor-style markup (documented in
// docs/sandbox-campaigns.md):
//   <unsubscribe>Unsubscribe</unsubscribe>   single-click unsubscribe link
//   [unsubscribe]                            the text-style unsubscribe tag
//   <singleline>…</singleline>, <multiline>…</multiline>, <img editable width="…">
//                                            editable regions
//   <repeater>…</repeater>                   repeating section; holds <layout label="…">…</layout>
//   <singleline repeatertitle="true">        a repeater title
//   <tableofcontents>…</tableofcontents>     links to the repeater titles
//   <webversion>, <forwardtoafriend>, <preferences>
//                                            other link-type service tags
//
// Content is fetched ONLY from loopback http(s) URLs (127.0.0.0/8, ::1,
// localhost). Any other http(s) URL is never contacted: its content is
// unknown and the content checks are skipped. Every other scheme (file:
// included) is not a content URL at all and is refused with the field's
// validation code before anything is read: answering file: URLs let anyone
// with the sandbox's public key tell which files exist on the machine.

export interface ContentProblem {
  code: number;
  message: string;
}

// ---- tokenizer --------------------------------------------------------------------

interface TagToken {
  kind: 'open' | 'close';
  /** Lower-cased element name. */
  name: string;
  attrs: Record<string, string>;
  selfClosing: boolean;
  /** Offsets of the tag in the source. */
  start: number;
  end: number;
}

interface Tokenized {
  tags: TagToken[];
  /** Text of each HTML comment. */
  comments: string[];
  /** The source with comments replaced by spaces (same length, so offsets hold). */
  uncommented: string;
}

const TAG_OR_COMMENT = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ATTRIBUTE = /([^\s=/"'>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;
/** Elements whose content is raw text: tags inside them are not tags. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);

function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of source.matchAll(ATTRIBUTE)) {
    const name = m[1].toLowerCase();
    let value = m[2] ?? '';
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) value = value.slice(1, -1);
    if (!(name in attrs)) attrs[name] = decodeEntities(value);
  }
  return attrs;
}

function tokenize(html: string): Tokenized {
  const tags: TagToken[] = [];
  const comments: string[] = [];
  let uncommented = '';
  let copied = 0;
  TAG_OR_COMMENT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TAG_OR_COMMENT.exec(html))) {
    const start = m.index;
    const end = start + m[0].length;
    if (m[0].startsWith('<!--')) {
      comments.push(m[0].replace(/^<!--/, '').replace(/-->$/, ''));
      uncommented += html.slice(copied, start) + ' '.repeat(end - start);
      copied = end;
      continue;
    }
    const name = m[2].toLowerCase();
    const rawAttrs = m[3];
    const token: TagToken = {
      kind: m[1] ? 'close' : 'open',
      name,
      attrs: m[1] ? {} : parseAttributes(rawAttrs),
      selfClosing: /\/\s*$/.test(rawAttrs),
      start,
      end,
    };
    tags.push(token);
    if (token.kind === 'open' && RAW_TEXT.has(name)) {
      // Skip to the closing tag of a raw-text element.
      const close = new RegExp(`</${name}\\s*>`, 'ig');
      close.lastIndex = end;
      const found = close.exec(html);
      const closeEnd = found ? found.index + found[0].length : html.length;
      if (found) tags.push({ kind: 'close', name, attrs: {}, selfClosing: false, start: found.index, end: closeEnd });
      TAG_OR_COMMENT.lastIndex = closeEnd;
    }
  }
  uncommented += html.slice(copied);
  return { tags, comments, uncommented };
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/gi, ' ')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&amp;/gi, '&');
}

function visibleText(fragment: string): string {
  return decodeEntities(fragment.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
}

// ---- shared checks ------------------------------------------------------------------

/** Service tags other than <unsubscribe> (code 4306: the unsubscribe tag may not sit inside one). */
const SERVICE_TAGS = new Set(['singleline', 'multiline', 'repeater', 'layout', 'tableofcontents', 'webversion', 'forwardtoafriend', 'preferences']);

const FLASH_CLASSID = /d27cdb6e-ae6d-11cf-96b8-444553540000/i;
const FLASH_TYPE = /^application\/(x-shockwave-flash|futuresplash)/i;
const JAVA_TYPE = /^application\/x-java-(applet|bean|vm)/i;

function referencesSwf(value: string | undefined): boolean {
  return value !== undefined && /\.swf(?:[?#].*)?$/i.test(value.trim());
}

/** 4201 Flash, 4202 script, 4203 Java applet (campaigns and templates). */
function activeContentProblems(tags: readonly TagToken[]): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const opens = tags.filter((t) => t.kind === 'open');
  const flash = opens.find(
    (t) =>
      ((t.name === 'object' || t.name === 'embed') && (FLASH_TYPE.test(t.attrs.type ?? '') || FLASH_CLASSID.test(t.attrs.classid ?? '') || referencesSwf(t.attrs.src) || referencesSwf(t.attrs.data))) ||
      (t.name === 'param' && /^(movie|src)$/i.test(t.attrs.name ?? '') && referencesSwf(t.attrs.value)),
  );
  if (flash) problems.push({ code: 4201, message: `The HTML contains Flash (<${flash.name}>), which email clients do not play.` });
  if (opens.some((t) => t.name === 'script')) problems.push({ code: 4202, message: 'The HTML contains a <script> element.' });
  const java = opens.find(
    (t) =>
      t.name === 'applet' ||
      ((t.name === 'object' || t.name === 'embed') && (JAVA_TYPE.test(t.attrs.type ?? '') || /^java:/i.test(t.attrs.classid ?? '') || /\.(class|jar)$/i.test(t.attrs.code ?? ''))),
  );
  if (java) problems.push({ code: 4203, message: `The HTML contains a Java applet (<${java.name}>).` });
  return problems;
}

/**
 * Unsubscribe tag rules shared by campaigns and templates: 4302 text under 3
 * characters, 4303 a link inside the tag, 4304 no closing tag, 4306 nested in
 * another service tag, 4307 nested in a link. Returns how many well-formed
 * <unsubscribe> tags were seen too.
 */
function unsubscribeProblems(html: string, tags: readonly TagToken[]): { problems: ContentProblem[]; count: number } {
  const problems: ContentProblem[] = [];
  const add = (code: number, message: string) => {
    if (!problems.some((p) => p.code === code)) problems.push({ code, message });
  };
  const serviceStack: string[] = [];
  let linkDepth = 0;
  let open: TagToken | undefined;
  let linkInside = false;
  let count = 0;
  for (const tag of tags) {
    if (tag.name === 'unsubscribe') {
      if (tag.kind === 'open') {
        if (open) add(4304, 'An <unsubscribe> tag has no closing </unsubscribe> tag.');
        if (serviceStack.length) add(4306, `The <unsubscribe> tag is nested in the <${serviceStack[serviceStack.length - 1]}> tag.`);
        if (linkDepth > 0) add(4307, 'The <unsubscribe> tag is nested in a link (<a>); it is a link itself.');
        open = tag;
        linkInside = false;
        count++;
      } else if (open) {
        if (linkInside) add(4303, 'The <unsubscribe> tag contains a link (<a>); it is a link itself.');
        if (visibleText(html.slice(open.end, tag.start)).length < 3) add(4302, 'The text of the <unsubscribe> tag is under 3 characters.');
        open = undefined;
      }
      continue;
    }
    if (tag.name === 'a' && !tag.selfClosing) {
      if (tag.kind === 'open') {
        linkDepth++;
        if (open) linkInside = true;
      } else linkDepth = Math.max(0, linkDepth - 1);
    }
    if (SERVICE_TAGS.has(tag.name) && !tag.selfClosing) {
      if (tag.kind === 'open') serviceStack.push(tag.name);
      else {
        const at = serviceStack.lastIndexOf(tag.name);
        if (at >= 0) serviceStack.length = at;
      }
    }
  }
  if (open) add(4304, 'An <unsubscribe> tag has no closing </unsubscribe> tag.');
  return { problems, count };
}

const TEXT_UNSUBSCRIBE_TAG = /\[unsubscribe\]/i;

/**
 * The longest link the sandbox imports for click tracking (code 317). The
 * service's limit is not shown; 2,048 characters is the common practical URL
 * limit.
 */
export const MAX_LINK_LENGTH = 2048;

/** 316 (a link whose URL cannot be parsed) and 317 (a link too long). */
function linkProblems(tags: readonly TagToken[]): ContentProblem[] {
  const problems: ContentProblem[] = [];
  for (const tag of tags) {
    if (tag.kind !== 'open' || (tag.name !== 'a' && tag.name !== 'area')) continue;
    const href = tag.attrs.href?.trim();
    if (!href) continue;
    if (href.length > MAX_LINK_LENGTH && !problems.some((p) => p.code === 317)) {
      problems.push({ code: 317, message: `A link is ${href.length} characters long; the limit is ${MAX_LINK_LENGTH}.` });
    }
    // Only absolute web links are imported for tracking; personalisation tags
    // ([webversion], [firstname]) and mailto:/tel: links are left alone.
    if (/^https?:/i.test(href) && !href.includes('[') && !isParsableUrl(href) && !problems.some((p) => p.code === 316)) {
      problems.push({ code: 316, message: `The link "${href.slice(0, 100)}" could not be imported: it is not a valid URL.` });
    }
  }
  return problems;
}

function isParsableUrl(href: string): boolean {
  if (/\s/.test(href)) return false;
  try {
    const url = new URL(href);
    return url.hostname.length > 0;
  } catch {
    return false;
  }
}

function looksLikeHtml(html: string, tags: readonly TagToken[]): boolean {
  return html.trim() !== '' && !html.includes('\u0000') && tags.length > 0;
}

// ---- campaigns -------------------------------------------------------------------------

/**
 * Problems of a campaign's HTML, in the order they are reported (the route
 * answers with the first). 311 is used for content that is not HTML at all and
 * for script outside <script> elements (event-handler attributes,
 * javascript: links): "invalid HTML content (script or Flash)".
 */
export function checkCampaignHtml(html: string): ContentProblem[] {
  const { tags, uncommented } = tokenize(html);
  if (!looksLikeHtml(html, tags)) return [{ code: 311, message: 'Invalid HTML content: the HTML URL did not give an HTML document.' }];
  const problems = activeContentProblems(tags);
  const inline = tags.find(
    (t) => t.kind === 'open' && Object.entries(t.attrs).some(([name, value]) => isEventHandlerAttribute(name) || /^\s*javascript:/i.test(value)),
  );
  if (inline) problems.push({ code: 311, message: `Invalid HTML content: <${inline.name}> carries script (an event handler or a javascript: URL).` });
  const unsubscribe = unsubscribeProblems(html, tags);
  problems.push(...unsubscribe.problems);
  if (unsubscribe.count === 0 && TEXT_UNSUBSCRIBE_TAG.test(uncommented)) {
    problems.push({ code: 318, message: 'Only a text-style unsubscribe tag ([unsubscribe]) is present; the HTML needs a single-click <unsubscribe> link.' });
  }
  problems.push(...linkProblems(tags));
  return problems;
}

/** Event handlers are `on` plus an event name of three letters or more (onclick, onload); `open` (details, dialog) is not one. */
function isEventHandlerAttribute(name: string): boolean {
  return /^on[a-z]{3,}$/.test(name);
}

// ---- templates ---------------------------------------------------------------------------

interface Frame {
  name: 'repeater' | 'layout' | 'singleline' | 'multiline' | 'tableofcontents';
  /** Editable regions inside (for repeaters and layouts). */
  editable: number;
  titles: number;
  layouts: number;
  /** <table> depth where the frame opened, and rows of that table directly inside the frame. */
  tableDepth: number;
  rows: number;
}

/**
 * Problems of a template's HTML, in document order for the structural ones,
 * then the document-wide ones. Codes produced: 4101-4132 (listed in
 * docs/sandbox-campaigns.md), 4201-4203, 4300-4307, 4401-4406. The data
 * repeater codes (45xx) are not: the spec defines no data-repeater markup.
 */
export function checkTemplateHtml(html: string): ContentProblem[] {
  const { tags, comments, uncommented } = tokenize(html);
  const problems: ContentProblem[] = [];
  const add = (code: number, message: string) => {
    if (!problems.some((p) => p.code === code)) problems.push({ code, message });
  };
  const stack: Frame[] = [];
  let tableDepth = 0;
  let editableTotal = 0;
  let titleTotal = 0;
  let repeaters = 0;
  let tocs = 0;
  /** Repeater items (layouts, or repeaters without layouts) with and without a title. */
  let itemsWithTitle = 0;
  let itemsWithoutTitle = 0;

  const nearest = (name: Frame['name']) => {
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i].name === name) return i;
    return -1;
  };
  const unclosed = (frame: Frame) => {
    if (frame.name === 'repeater') add(4102, 'A <repeater> tag has no closing </repeater> tag.');
    else if (frame.name === 'layout') add(4402, 'A <layout> tag has no closing </layout> tag.');
    else if (frame.name === 'singleline') add(4130, 'A <singleline> tag has no closing </singleline> tag.');
    else if (frame.name === 'multiline') add(4131, 'A <multiline> tag has no closing </multiline> tag.');
    else add(4108, 'A <tableofcontents> tag has no closing </tableofcontents> tag.');
  };
  const countTitles = (frame: Frame) => {
    if (frame.titles > 1) add(4110, `A ${frame.name === 'layout' ? 'layout' : 'repeater'} holds ${frame.titles} repeater title tags; one is allowed.`);
    if (frame.titles > 0) itemsWithTitle++;
    else itemsWithoutTitle++;
  };
  const closeFrame = (frame: Frame) => {
    if (frame.name === 'repeater') {
      if (frame.editable === 0) add(4104, 'A <repeater> holds no editable region.');
      if (frame.layouts === 0) {
        if (frame.rows > 1) add(4129, 'A table-based <repeater> holds several rows; wrap each row in a <layout>.');
        countTitles(frame);
      }
    } else if (frame.name === 'layout') {
      if (frame.editable === 0) add(4404, 'A <layout> holds no editable region.');
      if (frame.rows > 1) add(4405, 'A table-based <layout> holds several rows; one row per layout.');
      countTitles(frame);
    }
  };
  const push = (name: Frame['name']) => stack.push({ name, editable: 0, titles: 0, layouts: 0, tableDepth, rows: 0 });
  const markEditable = () => {
    editableTotal++;
    for (const frame of stack) frame.editable++;
  };

  for (const tag of tags) {
    const { name } = tag;
    if (name === 'table' && !tag.selfClosing) {
      tableDepth = tag.kind === 'open' ? tableDepth + 1 : Math.max(0, tableDepth - 1);
      continue;
    }
    if (name === 'tr' && tag.kind === 'open') {
      for (let i = stack.length - 1; i >= 0; i--) {
        const frame = stack[i];
        if (frame.name === 'repeater' || frame.name === 'layout') {
          if (frame.tableDepth === tableDepth && tableDepth > 0) frame.rows++;
          break;
        }
      }
      continue;
    }
    if (name === 'img' && tag.kind === 'open' && 'editable' in tag.attrs) {
      markEditable();
      if (!tag.attrs.width?.trim()) add(4103, 'An editable <img> tag has no width attribute.');
      continue;
    }
    if (tag.kind === 'open' && !tag.selfClosing) {
      switch (name) {
        case 'repeater':
          if (nearest('repeater') >= 0) add(4128, 'A <repeater> is nested in another <repeater>.');
          repeaters++;
          push('repeater');
          break;
        case 'layout': {
          const repeater = nearest('repeater');
          if (repeater < 0) add(4401, 'A <layout> is not inside a <repeater>.');
          else stack[repeater].layouts++;
          if (!tag.attrs.label?.trim()) add(4406, 'Not all layouts are labelled: a <layout> has no label attribute.');
          push('layout');
          break;
        }
        case 'singleline':
        case 'multiline': {
          markEditable();
          if (isTrue(tag.attrs.repeatertitle)) {
            titleTotal++;
            for (let i = stack.length - 1; i >= 0; i--) {
              if (stack[i].name === 'layout' || stack[i].name === 'repeater') {
                stack[i].titles++;
                break;
              }
            }
          }
          push(name);
          break;
        }
        case 'tableofcontents':
          tocs++;
          push('tableofcontents');
          break;
      }
      continue;
    }
    if (tag.kind === 'close') {
      if (name === 'repeater' || name === 'layout' || name === 'singleline' || name === 'multiline' || name === 'tableofcontents') {
        const at = nearest(name);
        if (at < 0) {
          if (name === 'repeater') add(4105, 'A closing </repeater> tag has no opening <repeater> tag.');
          if (name === 'layout') add(4403, 'A closing </layout> tag has no opening <layout> tag.');
          continue;
        }
        for (const frame of stack.splice(at + 1).reverse()) unclosed(frame);
        closeFrame(stack.pop()!);
      }
    }
  }
  for (const frame of stack.reverse()) unclosed(frame);

  if (editableTotal === 0) add(4101, 'The template has no editable region (<singleline>, <multiline> or <img editable>).');
  if (tocs > 0 && repeaters === 0) add(4118, 'The template has a <tableofcontents> but no <repeater>.');
  if (titleTotal > 0 && tocs === 0) add(4111, 'The template has repeater titles but no <tableofcontents> tags.');
  if (tocs > 0 && repeaters > 0 && titleTotal === 0) add(4132, 'The template has a <tableofcontents> but no repeater with a title (repeatertitle="true").');
  if (tocs > 0 && itemsWithTitle > 0 && itemsWithoutTitle > 0) add(4109, 'A repeater item has no repeater title tag while the others do.');

  problems.push(...activeContentProblems(tags));

  const unsubscribe = unsubscribeProblems(html, tags);
  if (unsubscribe.count === 0) {
    if (comments.some((c) => /<unsubscribe\b/i.test(c))) add(4301, 'The <unsubscribe> tag is hidden in an HTML comment.');
    else add(4300, 'The template has no <unsubscribe> tag.');
  }
  for (const p of unsubscribe.problems) add(p.code, p.message);
  if (TEXT_UNSUBSCRIBE_TAG.test(uncommented)) add(4305, 'The text-style unsubscribe tag [unsubscribe] is used in the HTML; use <unsubscribe>…</unsubscribe>.');
  return problems;
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && (value === '' || value.toLowerCase() === 'true' || value.toLowerCase() === 'repeatertitle');
}

/**
 * Relative files the HTML refers to (img/script/input src, background
 * attributes, <link href>), without query or fragment; for 4350.
 */
export function referencedFiles(html: string): string[] {
  const { tags } = tokenize(html);
  const files = new Set<string>();
  for (const tag of tags) {
    if (tag.kind !== 'open') continue;
    const values = [tag.attrs.src, tag.attrs.background, tag.name === 'link' ? tag.attrs.href : undefined];
    for (const raw of values) {
      const value = raw?.trim();
      if (!value || /^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith('//') || value.startsWith('#') || value.startsWith('[') || value.startsWith('/')) continue;
      let path = value.replace(/[?#].*$/, '').replace(/^(\.\/)+/, '');
      try {
        path = decodeURIComponent(path);
      } catch {
        // keep it as written
      }
      if (path) files.add(path);
    }
  }
  return [...files];
}

/** 4350: files the HTML refers to that the ZIP does not hold (an entry may sit under one top folder). */
export function missingFromZip(html: string, entries: readonly string[]): string[] {
  const names = new Set(entries.map((e) => e.replace(/\\/g, '/')));
  const stripped = new Set([...names].map((e) => e.replace(/^[^/]+\//, '')));
  return referencedFiles(html).filter((file) => !names.has(file) && !stripped.has(file));
}

/**
 * The file names of a ZIP archive, read from its central directory (no
 * decompression needed); undefined when the bytes are not a ZIP archive.
 */
export function zipEntryNames(bytes: Buffer): string[] | undefined {
  const EOCD = 0x06054b50;
  const CENTRAL = 0x02014b50;
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= lowest; i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const count = bytes.readUInt16LE(eocd + 10);
  let offset = bytes.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== CENTRAL) return undefined;
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    names.push(bytes.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

// ---- fetching -------------------------------------------------------------------------------

export const CONTENT_FETCH_TIMEOUT_MS = 2_000;
export const CONTENT_MAX_BYTES = 5 * 1024 * 1024;

export type ContentFetch =
  | { kind: 'content'; bytes: Buffer }
  /** Not fetched (a non-local URL) or not fetchable; content checks are skipped. */
  | { kind: 'unknown'; reason: string };

/** Whether `url` names this machine: 127.0.0.0/8, ::1 or localhost. No name is resolved. */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m !== null && Number(m[1]) === 127 && m.slice(2).every((part) => Number(part) <= 255);
}

/**
 * Reads content for checking. Only loopback http(s) URLs are read; redirects
 * are not followed (they could lead off the machine). Nothing else is
 * touched, the filesystem included.
 */
export async function fetchLocalContent(
  rawUrl: string,
  { timeoutMs = CONTENT_FETCH_TIMEOUT_MS, maxBytes = CONTENT_MAX_BYTES }: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<ContentFetch> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { kind: 'unknown', reason: 'not a URL' };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !isLoopbackUrl(url)) {
    return { kind: 'unknown', reason: 'not a loopback http(s) URL; never fetched' };
  }
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel();
      return { kind: 'unknown', reason: `HTTP ${response.status}` };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > maxBytes) return { kind: 'unknown', reason: 'content too large' };
      chunks.push(Buffer.from(chunk));
    }
    return { kind: 'content', bytes: Buffer.concat(chunks) };
  } catch (error) {
    return { kind: 'unknown', reason: (error as Error).message };
  }
}

/**
 * Whether a content URL (HtmlUrl, TextUrl, HtmlPageURL, ZipFileURL) is
 * well-formed: an absolute http(s) URL with a host. Any other scheme (file:,
 * ftp:, data:…) is not, and is refused with the field's code whatever it
 * points at, so the answer says nothing about the machine.
 */
export function isContentUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
