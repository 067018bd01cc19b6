// Turns a delivery body into {Events, ListID}, from JSON or XML
// (service-spec.md "Events" rule 1: the format chosen when the webhook was
// created). The XML form is not shown by the spec; we accept the shape the
// sandbox sends (docs/sandbox.md "XML body": element names equal to the JSON
// field names, <CustomFields><CustomField><Key/><Value/></CustomField></CustomFields>)
// and the variants a hand-written or other producer is likely to send: any
// root element name, namespace prefixes, indentation, attributes, one or no
// event, empty elements. XML is parsed by fast-xml-parser, never by patterns.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  checkDelivery,
  isPlainObject,
  MalformedDeliveryError,
  OversizedDeliveryError,
  TooManyElementsError,
  TooManyEventsError,
  type CustomFieldValue,
  type DeliveryFormat,
  type WebhookDelivery,
  type WebhookEvent,
} from './events.js';

export interface DecodedDelivery {
  format: DeliveryFormat;
  delivery: WebhookDelivery;
}

/**
 * The format a body is in: the Content-Type decides when it names JSON or
 * XML; otherwise (missing, text/plain, octet-stream) the first character does.
 */
export function detectFormat(text: string, contentType?: string): DeliveryFormat {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (media === 'application/json' || media === 'text/json' || media.endsWith('+json')) return 'json';
  if (media === 'application/xml' || media === 'text/xml' || media.endsWith('+xml')) return 'xml';
  const first = stripBom(text).trimStart()[0];
  if (first === '{' || first === '[') return 'json';
  if (first === '<') return 'xml';
  throw new MalformedDeliveryError(
    first === undefined ? 'the body is empty' : `the body is neither JSON nor XML${media ? ` (Content-Type ${media})` : ''}`,
  );
}

export interface DecodeOptions {
  /**
   * More events than this is a TooManyEventsError. For XML the events are
   * counted before the document is validated or parsed, so an oversized one
   * costs a scan, not a parse (a 161,721-event document held the event loop
   * for seconds and took 748 MB to parse).
   */
  maxEvents?: number;
}

export function decodeDelivery(body: string | Uint8Array, contentType?: string, options: DecodeOptions = {}): DecodedDelivery {
  const text = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  const format = detectFormat(text, contentType);
  const delivery = format === 'json' ? decodeJson(text, options.maxEvents) : decodeXml(text, options.maxEvents);
  return { format, delivery };
}

/**
 * The most values (objects, arrays, strings, numbers, literals) a JSON
 * delivery may hold, and the deepest it may nest, checked by a scan before
 * the parse: 3.3 million empty objects under {"R":{"Events":[…]}} (10 MB)
 * took JSON.parse 2.6 s and 350 MB. A delivery of 1,000 events with 30
 * custom field values each holds about 99,000 values and nests 5 deep.
 */
export const MAX_JSON_VALUES = 200_000;
export const MAX_JSON_DEPTH = 16;

/**
 * Counts the events, values and nesting depth of a JSON text, stopping as
 * soon as one passes its limit. Events are the elements of any array under a
 * key "Events", wherever it sits (CLI.md `webhooks listen`). A scan, not a
 * parse: on malformed text the parse that follows reports the error.
 */
export function scanJson(text: string, limits: { events: number; values: number; depth: number }): { events: number; values: number; depth: number } {
  let events = 0;
  let values = 0;
  let depth = 0;
  let deepest = 0;
  // eventsAt[d]: whether the open container at depth d is an array under the key "Events".
  const eventsAt: boolean[] = [false];
  let keyIsEvents = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x2c /* , */ || c === 0x3a /* : */) continue;
    if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth > 0) depth--;
      continue;
    }
    // A string: a key when a ':' follows, else a value.
    if (c === 0x22 /* " */) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x5c /* \ */) j += 2;
        else if (d === 0x22) break;
        else j++;
      }
      let k = j + 1;
      while (k < n && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x0a || text.charCodeAt(k) === 0x0d || text.charCodeAt(k) === 0x09)) k++;
      if (text.charCodeAt(k) === 0x3a) {
        keyIsEvents = j - i === 7 && text.startsWith('Events', i + 1);
        i = k;
        continue;
      }
      i = j;
    } else if (c !== 0x7b /* { */ && c !== 0x5b /* [ */) {
      // A number or a literal: to its end.
      while (i + 1 < n && !isJsonDelimiter(text.charCodeAt(i + 1))) i++;
    }
    values++;
    if (eventsAt[depth]) events++;
    if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      eventsAt[depth] = c === 0x5b && keyIsEvents;
    }
    keyIsEvents = false;
    if (events > limits.events || values > limits.values || depth > limits.depth) break;
  }
  return { events, values, depth: deepest };
}

function isJsonDelimiter(c: number): boolean {
  return c === 0x2c || c === 0x5d || c === 0x7d || c === 0x3a || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function decodeJson(text: string, maxEvents: number | undefined): WebhookDelivery {
  const body = stripBom(text);
  const shape = scanJson(body, { events: maxEvents ?? Infinity, values: MAX_JSON_VALUES, depth: MAX_JSON_DEPTH });
  if (maxEvents !== undefined && shape.events > maxEvents) throw new TooManyEventsError(maxEvents);
  if (shape.values > MAX_JSON_VALUES) throw new TooManyElementsError(MAX_JSON_VALUES, 'JSON values');
  if (shape.depth > MAX_JSON_DEPTH) throw new MalformedDeliveryError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels (a delivery nests 5)`);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new MalformedDeliveryError(`invalid JSON: ${(error as Error).message}`);
  }
  if (maxEvents !== undefined && isPlainObject(value) && Array.isArray(value.Events) && value.Events.length > maxEvents) {
    throw new TooManyEventsError(maxEvents);
  }
  return checkDelivery(value);
}

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
}

export type XmlLimits = Pick<XmlShape, 'events' | 'elements' | 'depth'> & { attributes?: number; attributesPerElement?: number; attributeBytes?: number };

/**
 * Counts the events, elements and nesting depth of an XML document, stopping
 * as soon as one passes its limit. A scan, not a parse: comments, CDATA
 * sections, processing instructions and declarations are skipped, quoted
 * attribute values may hold '>'. An event is any child of an element whose
 * name, without its namespace prefix, is Events, wherever that element sits:
 * on a well-formed delivery that is exactly the events the parse finds; a
 * document that hides them deeper is still refused for their number. On a
 * malformed document the parse that follows reports the error.
 */
export function scanXml(text: string, limits: XmlLimits): XmlShape {
  let depth = 0;
  let deepest = 0;
  let elements = 0;
  let events = 0;
  let attributes = 0;
  let mostAttributes = 0;
  let attributeBytes = 0;
  const { attributes: maxAttributes = Infinity, attributesPerElement = Infinity, attributeBytes: maxAttributeBytes = Infinity } = limits;
  // eventsAt[d]: whether the open element at depth d is an Events element.
  // The scan stops past limits.depth, so this stays small.
  const eventsAt: boolean[] = [false];
  let i = text.indexOf('<');
  while (i !== -1) {
    const next = text.charCodeAt(i + 1);
    let end: number;
    if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', i)) end = endOf(text, '-->', i + 4);
      else if (text.startsWith('<![CDATA[', i)) end = endOf(text, ']]>', i + 9);
      else end = declarationEnd(text, i + 2);
    } else if (next === 0x3f /* ? */) {
      end = endOf(text, '?>', i + 2);
    } else if (next === 0x2f /* / */) {
      end = endOf(text, '>', i + 2);
      if (depth > 0) depth--;
    } else {
      end = tagEnd(text, i + 1);
      if (end === -1) break;
      const selfClosing = text.charCodeAt(end - 2) === 0x2f;
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
      else eventsAt[depth] = isEventsName(text, i + 1);
    }
    if (end === -1) break;
    i = text.indexOf('<', end);
  }
  return { events, elements, depth: deepest, attributes, mostAttributes, attributeBytes };
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

let parser: XMLParser | undefined;

function xmlParser(): XMLParser {
  return (parser ??= new XMLParser({
    ignoreAttributes: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    removeNSPrefix: true,
    // Values stay strings exactly as sent: "0042" must not become 42, nor
    // " Ada " become "Ada" (JSON deliveries keep them too).
    parseTagValue: false,
    trimValues: false,
    htmlEntities: false,
    // Each child of <Events> is an event and each <CustomField> a value, even when there is only one.
    isArray: (name, jpath) => name === 'CustomField' || parentOf(String(jpath)) === 'Events',
  }));
}

function parentOf(jpath: string): string | undefined {
  const parts = jpath.split('.');
  return parts.length >= 2 ? parts[parts.length - 2] : undefined;
}

function decodeXml(text: string, maxEvents: number | undefined): WebhookDelivery {
  const body = stripBom(text);
  const attributeLimits = { attributes: MAX_XML_ATTRIBUTES, attributesPerElement: MAX_XML_ATTRIBUTES_PER_ELEMENT, attributeBytes: MAX_XML_ATTRIBUTE_BYTES };
  const shape = scanXml(body, { events: maxEvents ?? Infinity, elements: MAX_XML_ELEMENTS, depth: MAX_XML_DEPTH, ...attributeLimits });
  if (maxEvents !== undefined && shape.events > maxEvents) throw new TooManyEventsError(maxEvents);
  if (shape.elements > MAX_XML_ELEMENTS) throw new TooManyElementsError(MAX_XML_ELEMENTS);
  if (shape.mostAttributes > MAX_XML_ATTRIBUTES_PER_ELEMENT) throw new OversizedDeliveryError(`more than ${MAX_XML_ATTRIBUTES_PER_ELEMENT} attributes on one XML element`);
  if (shape.attributes > MAX_XML_ATTRIBUTES) throw new OversizedDeliveryError(`more than ${MAX_XML_ATTRIBUTES} XML attributes in one delivery`);
  if (shape.attributeBytes > MAX_XML_ATTRIBUTE_BYTES) throw new OversizedDeliveryError(`XML attributes of more than ${MAX_XML_ATTRIBUTE_BYTES / 1024} KiB in one delivery`);
  if (shape.depth > MAX_XML_DEPTH) throw new MalformedDeliveryError(`XML nested deeper than ${MAX_XML_DEPTH} elements (a delivery nests 6)`);
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    // The parser's message may quote whole element names, or every element
    // still open: the reason stays one short line (it is answered and printed).
    throw new MalformedDeliveryError(`invalid XML at line ${valid.err.line}, column ${valid.err.col}: ${shortened(valid.err.msg)}`);
  }
  let document: unknown;
  try {
    document = xmlParser().parse(body);
  } catch (error) {
    throw new MalformedDeliveryError(`invalid XML: ${(error as Error).message}`);
  }
  const roots = Object.keys(elementsOf(document));
  if (roots.length !== 1) throw new MalformedDeliveryError('the XML body must have exactly one root element');
  const rootName = roots[0]!;
  const root = (document as Record<string, unknown>)[rootName];
  if (!isPlainObject(root)) throw new MalformedDeliveryError(`<${rootName}> has no Events and ListID elements`);
  const fields = elementsOf(root);
  const delivery: Record<string, unknown> = {};
  if ('Events' in fields) delivery.Events = xmlEvents(fields.Events);
  // The scan above counts exactly on well-formed XML; this holds whatever it missed.
  if (maxEvents !== undefined && Array.isArray(delivery.Events) && delivery.Events.length > maxEvents) throw new TooManyEventsError(maxEvents);
  if ('ListID' in fields) {
    if (typeof fields.ListID !== 'string') throw new MalformedDeliveryError('<ListID> must hold text only, once');
    delivery.ListID = fields.ListID;
  }
  return checkDelivery(delivery);
}

/** The children of <Events>: each one an event, whatever its element name. */
function xmlEvents(value: unknown): unknown[] {
  if (value === '' || isBlank(value)) return [];
  if (!isPlainObject(value)) throw new MalformedDeliveryError('<Events> must contain <Event> elements');
  const events: unknown[] = [];
  for (const children of Object.values(elementsOf(value))) {
    for (const child of children as unknown[]) events.push(xmlEvent(child));
  }
  return events;
}

function xmlEvent(value: unknown): WebhookEvent | unknown {
  if (value === '' || isBlank(value)) return {};
  if (!isPlainObject(value)) return value; // text inside <Event>: checkDelivery names it
  const event: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(elementsOf(value))) {
    event[name] = name === 'CustomFields' ? xmlCustomFields(field) : cleanValue(field);
  }
  return event as WebhookEvent;
}

function xmlCustomFields(value: unknown): CustomFieldValue[] | unknown {
  if (value === '' || isBlank(value)) return [];
  if (!isPlainObject(value)) return value;
  const fields: CustomFieldValue[] = [];
  for (const items of Object.values(elementsOf(value))) {
    for (const item of (Array.isArray(items) ? items : [items]) as unknown[]) {
      const { Key, Value, ...extra } = isPlainObject(item) ? elementsOf(item) : ({} as Record<string, unknown>);
      // <Value/> is an empty value; a missing Value is one too (the JSON form always has it).
      fields.push({ Key: asText(Key), Value: asText(Value), ...(cleanValue(extra) as object) });
    }
  }
  return fields;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || isBlank(value) ? '' : JSON.stringify(cleanValue(value));
}

function cleanValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cleanValue);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(elementsOf(value)).map(([k, v]) => [k, cleanValue(v)]));
}

/** An element's children without the whitespace between them (indented XML). */
function elementsOf(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '#text' && typeof child === 'string' && child.trim() === '') continue;
    out[key] = child;
  }
  return out;
}

function isBlank(value: unknown): boolean {
  return (typeof value === 'string' && value.trim() === '') || (isPlainObject(value) && Object.keys(elementsOf(value)).length === 0);
}

function shortened(message: string): string {
  const line = message.replace(/\s+/g, ' ');
  return line.length > MAX_REASON_CHARS ? `${line.slice(0, MAX_REASON_CHARS - 1)}…` : line;
}

const MAX_REASON_CHARS = 160;

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
