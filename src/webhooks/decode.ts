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

function decodeJson(text: string, maxEvents: number | undefined): WebhookDelivery {
  let value: unknown;
  try {
    value = JSON.parse(stripBom(text));
  } catch (error) {
    throw new MalformedDeliveryError(`invalid JSON: ${(error as Error).message}`);
  }
  if (maxEvents !== undefined && isPlainObject(value) && Array.isArray(value.Events) && value.Events.length > maxEvents) {
    throw new TooManyEventsError(maxEvents);
  }
  return checkDelivery(value);
}

/**
 * How many children the root's <Events> element has, counting no further
 * than `stopAfter + 1`. A scan, not a parse: comments, CDATA sections,
 * processing instructions and declarations are skipped, quoted attribute
 * values may hold '>'. On a well-formed document it counts exactly the events
 * the parse finds (children of <Events>, whatever their name or namespace
 * prefix); on a malformed one the parse that follows reports the error.
 */
export function countXmlEvents(text: string, stopAfter: number): number {
  let depth = 0;
  let inEvents = false;
  let count = 0;
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
      if (inEvents && depth === 2) inEvents = false;
      depth--;
    } else {
      end = tagEnd(text, i + 1);
      if (end === -1) break;
      const selfClosing = text.charCodeAt(end - 2) === 0x2f;
      depth++;
      if (inEvents && depth === 3) {
        count++;
        if (count > stopAfter) return count;
      } else if (depth === 2 && !selfClosing && localName(text, i + 1) === 'Events') {
        inEvents = true;
      }
      if (selfClosing) depth--;
    }
    if (end === -1) break;
    i = text.indexOf('<', end);
  }
  return count;
}

/** The index just past `terminator`, or -1. */
function endOf(text: string, terminator: string, from: number): number {
  const at = text.indexOf(terminator, from);
  return at === -1 ? -1 : at + terminator.length;
}

/** The end of an opening tag, past its '>', skipping quoted attribute values. */
function tagEnd(text: string, from: number): number {
  let quote = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return i + 1;
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

/** An element's name without its namespace prefix. */
function localName(text: string, from: number): string {
  let end = from;
  while (end < text.length && !/[\s/>]/.test(text[end]!)) end++;
  const name = text.slice(from, end);
  return name.slice(name.indexOf(':') + 1);
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
  if (maxEvents !== undefined && countXmlEvents(body, maxEvents) > maxEvents) throw new TooManyEventsError(maxEvents);
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    throw new MalformedDeliveryError(`invalid XML at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}`);
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

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
