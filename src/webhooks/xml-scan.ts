// The pre-scan of an XML delivery (src/webhooks/decode.ts): counts what would
// make the parse costly (events, elements, nesting, attributes, the length of
// one text) without parsing, so a hostile body costs a scan, never a parse.
/**
 * The most elements an XML delivery may hold, and the deepest it may nest;
 * both checked by a scan before the document is validated or parsed, since
 * fast-xml-parser spends about 2-3 µs and 170 bytes per element: 2.5 million
 * empty elements (10 MB) held the event loop 4-7 s and took 420-950 MB
 * (issue 19). A delivery of 1,000 events (service-spec.md "Events" rule 3)
 * with 30 custom field values each has 97,000 elements; the service shows no
 * limit on custom fields, so the bound leaves room for twice that. At the
 * bound a parse takes 0.4-0.6 s and about 60 MB (measured on Node 20).
 */
export const MAX_XML_ELEMENTS = 200_000;
/** The sandbox's form nests 6 deep (Webhook, Events, Event, CustomFields, CustomField, Key); a wrapper or two more is still fine. */
export const MAX_XML_DEPTH = 16;

/**
 * Attributes, counted by the same scan: fast-xml-parser validates them all
 * even though it ignores them, superlinearly on one element (800,000 on one
 * element, 9.4 MB, held the event loop 2.7 s and took 752 MB), and a single
 * 9 MB value took 4 s and 460 MB. The service's events carry a handful of
 * attributes at most (namespace declarations, an id); 1,000 events with 20
 * each stay under these bounds, and a parse at them takes about 0.2 s.
 */
export const MAX_XML_ATTRIBUTES_PER_ELEMENT = 32;
export const MAX_XML_ATTRIBUTES = 20_000;
/** Bytes of all attributes together (names, values, quotes, the spaces between them). */
export const MAX_XML_ATTRIBUTE_BYTES = 256 * 1024;
/**
 * Characters of text in one element, CDATA included, comments and processing
 * instructions not cutting it (the parser joins the pieces again). The parser
 * builds a text superlinearly: one of 9 MB took 1.9 s and 400 MB, while 9 MB
 * in texts of 64 KiB took 0.2 s. A value the service sends is at most 250
 * characters (service-spec.md "Limits"), so the bound leaves ample room.
 */
export const MAX_XML_TEXT_CHARS = 64 * 1024;

export interface XmlShape {
  /** Children of elements named Events, wherever those sit (CLI.md `webhooks listen`). */
  events: number;
  elements: number;
  /** The deepest nesting of elements. */
  depth: number;
  /** Attributes of all elements together, the most on one element, and their bytes together. */
  attributes: number;
  mostAttributes: number;
  attributeBytes: number;
  /** The longest text between two element tags, in characters. */
  longestText: number;
}

export type XmlLimits = Pick<XmlShape, 'events' | 'elements' | 'depth'> & { attributes?: number; attributesPerElement?: number; attributeBytes?: number; text?: number };

/**
 * Counts the events, elements, nesting depth, attributes and longest text of
 * an XML document, stopping as soon as one passes its limit. A scan, not a
 * parse: comments, CDATA
 * sections, processing instructions and declarations are skipped, quoted
 * attribute values may hold '>'. An event is any child of an element whose
 * name, without its namespace prefix, is Events, wherever that element sits:
 * on a well-formed delivery that is exactly the events the parse finds; a
 * document that hides them deeper is still refused for their number. On a
 * malformed document the parse that follows reports the error.
 */
export function scanXml(xml: string, limits: XmlLimits): XmlShape {
  let depth = 0;
  let deepest = 0;
  let elements = 0;
  let events = 0;
  let attributes = 0;
  let mostAttributes = 0;
  let attributeBytes = 0;
  const { attributes: maxAttributes = Infinity, attributesPerElement = Infinity, attributeBytes: maxAttributeBytes = Infinity, text: maxText = Infinity } = limits;
  // Text since the last element tag: what the parser makes one string of.
  let text = 0;
  let longestText = 0;
  let after = 0;
  // eventsAt[d]: whether the open element at depth d is an Events element.
  // The scan stops past limits.depth, so this stays small.
  const eventsAt: boolean[] = [false];
  let i = xml.indexOf('<');
  while (i !== -1) {
    text += i - after;
    if (text > longestText) longestText = text;
    if (longestText > maxText) break;
    const next = xml.charCodeAt(i + 1);
    let end: number;
    if (next === 0x21 /* ! */) {
      if (xml.startsWith('<!--', i)) end = endOf(xml, '-->', i + 4);
      else if (xml.startsWith('<![CDATA[', i)) {
        end = endOf(xml, ']]>', i + 9);
        text += (end === -1 ? xml.length : end - 3) - (i + 9);
        if (text > longestText) longestText = text;
      } else end = declarationEnd(xml, i + 2);
    } else if (next === 0x3f /* ? */) {
      end = endOf(xml, '?>', i + 2);
    } else if (next === 0x2f /* / */) {
      end = endOf(xml, '>', i + 2);
      text = 0;
      if (depth > 0) depth--;
    } else {
      text = 0;
      end = tagEnd(xml, i + 1);
      if (end === -1) break;
      const selfClosing = xml.charCodeAt(end - 2) === 0x2f;
      if (eventsAt[depth]) events++;
      depth++;
      elements++;
      if (depth > deepest) deepest = depth;
      attributes += tag.attributes;
      attributeBytes += tag.attributeBytes;
      if (tag.attributes > mostAttributes) mostAttributes = tag.attributes;
      if (events > limits.events || elements > limits.elements || depth > limits.depth) break;
      if (attributes > maxAttributes || mostAttributes > attributesPerElement || attributeBytes > maxAttributeBytes) break;
      if (selfClosing) depth--;
      else eventsAt[depth] = isEventsName(xml, i + 1);
    }
    if (end === -1) break;
    after = end;
    i = xml.indexOf('<', end);
  }
  // Text after the last tag (or of a CDATA section) counts too.
  if (i === -1) text += Math.max(0, xml.length - after);
  if (text > longestText) longestText = text;
  return { events, elements, depth: deepest, attributes, mostAttributes, attributeBytes, longestText };
}

/** How many events scanXml finds, counting no further than `stopAfter + 1`. */
export function countXmlEvents(text: string, stopAfter: number): number {
  return scanXml(text, { events: stopAfter, elements: Infinity, depth: Infinity }).events;
}

/** The index just past `terminator`, or -1. */
function endOf(text: string, terminator: string, from: number): number {
  const at = text.indexOf(terminator, from);
  return at === -1 ? -1 : at + terminator.length;
}

/** What tagEnd() found in the opening tag it last scanned (one object, reused: the scan allocates nothing per element). */
const tag = { attributes: 0, attributeBytes: 0 };

/**
 * The end of an opening tag, past its '>', skipping quoted attribute values;
 * counts its attributes (each '=' outside quotes) and their bytes (all of the
 * tag after its name) into `tag`.
 */
function tagEnd(text: string, from: number): number {
  let quote = 0;
  let nameEnd = -1;
  tag.attributes = 0;
  tag.attributeBytes = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
      continue;
    }
    if (nameEnd === -1 && (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2f /* / */ || c === 0x3e)) nameEnd = i;
    if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3d /* = */) tag.attributes++;
    else if (c === 0x3e) {
      tag.attributeBytes = i - nameEnd;
      return i + 1;
    }
  }
  return -1;
}

/** The end of <!DOCTYPE …> or another declaration, with its internal subset in [ ] if any. */
function declarationEnd(text: string, from: number): number {
  const close = text.indexOf('>', from);
  const open = text.indexOf('[', from);
  if (open !== -1 && (close === -1 || open < close)) {
    const subsetEnd = text.indexOf(']', open);
    return subsetEnd === -1 ? -1 : endOf(text, '>', subsetEnd);
  }
  return close === -1 ? -1 : close + 1;
}

/** Whether the element name starting at `from` is Events, with or without a namespace prefix. */
function isEventsName(text: string, from: number): boolean {
  let end = from;
  let local = from;
  for (; end < text.length; end++) {
    const c = text.charCodeAt(end);
    if (c === 0x3e /* > */ || c === 0x2f /* / */ || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) break;
    if (c === 0x3a /* : */) local = end + 1;
  }
  return end - local === 6 && text.startsWith('Events', local);
}
