// The pre-scan of an XML delivery: counts what makes a fast-xml-parser parse costly (elements,
// nesting, attributes, one long text) so a hostile body costs a scan, never a parse. Its costs
// are in bench/README.md "Figures behind bounds in src/".
/** Room for twice a full delivery of events with many custom fields (the service shows no limit on them). */
export const MAX_XML_ELEMENTS = 200_000;
/** The sandbox's form nests 6 deep; a wrapper or two more is still fine. */
export const MAX_XML_DEPTH = 16;

/** The parser validates attributes it ignores, superlinearly on one element; events carry a handful. */
export const MAX_XML_ATTRIBUTES_PER_ELEMENT = 32;
export const MAX_XML_ATTRIBUTES = 20_000;
export const MAX_XML_ATTRIBUTE_BYTES = 256 * 1024;
/** One element's text, CDATA included: the parser builds it superlinearly; a service value is short. */
export const MAX_XML_TEXT_CHARS = 64 * 1024;

export interface XmlShape {
  /** Children of elements named Events, wherever those sit (CLI.md `webhooks listen`). */
  events: number;
  elements: number;
  depth: number;
  attributes: number;
  mostAttributes: number;
  attributeBytes: number;
  longestText: number;
}

export type XmlLimits = Pick<XmlShape, 'events' | 'elements' | 'depth'> & { attributes?: number; attributesPerElement?: number; attributeBytes?: number; text?: number };

/**
 * Stops as soon as one count passes its limit. An event is any child of an element named
 * Events (without prefix) wherever it sits, so a document that hides them deeper is still
 * refused for their number; a malformed one is left to the parse to report.
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
  // eventsAt[d]: whether the open element at depth d is Events; bounded by limits.depth.
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

export function countXmlEvents(text: string, stopAfter: number): number {
  return scanXml(text, { events: stopAfter, elements: Infinity, depth: Infinity }).events;
}

function endOf(text: string, terminator: string, from: number): number {
  const at = text.indexOf(terminator, from);
  return at === -1 ? -1 : at + terminator.length;
}

/** Reused, so the scan allocates nothing per element. */
const tag = { attributes: 0, attributeBytes: 0 };

/** Counts attributes ('=' outside quotes) and their bytes into `tag`. */
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

function declarationEnd(text: string, from: number): number {
  const close = text.indexOf('>', from);
  const open = text.indexOf('[', from);
  if (open !== -1 && (close === -1 || open < close)) {
    const subsetEnd = text.indexOf(']', open);
    return subsetEnd === -1 ? -1 : endOf(text, '>', subsetEnd);
  }
  return close === -1 ? -1 : close + 1;
}

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
