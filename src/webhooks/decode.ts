// A delivery body to {Events, ListID}, from JSON or XML. The spec shows no XML form: we accept
// the sandbox's (docs/sandbox.md "XML body") and the variants another producer is likely to
// send. Both are pre-scanned so a hostile body costs a scan, never a parse.
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
import { MAX_XML_ATTRIBUTE_BYTES, MAX_XML_ATTRIBUTES, MAX_XML_ATTRIBUTES_PER_ELEMENT, MAX_XML_DEPTH, MAX_XML_ELEMENTS, MAX_XML_TEXT_CHARS, scanXml } from './xml-scan.js';

export interface DecodedDelivery {
  format: DeliveryFormat;
  delivery: WebhookDelivery;
}

/** The Content-Type decides when it names JSON or XML; otherwise the first character does. */
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
  maxEvents?: number;
}

export function decodeDelivery(body: string | Uint8Array, contentType?: string, options: DecodeOptions = {}): DecodedDelivery {
  const text = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  const format = detectFormat(text, contentType);
  const delivery = format === 'json' ? decodeJson(text, options.maxEvents) : decodeXml(text, options.maxEvents);
  return { format, delivery };
}

/** Room for twice a full delivery (bench/README.md "Figures behind bounds in src/"). */
export const MAX_JSON_VALUES = 200_000;
export const MAX_JSON_DEPTH = 16;

/** Events are the elements of any array under a key "Events", wherever it sits (CLI.md `webhooks listen`). */
export function scanJson(text: string, limits: { events: number; values: number; depth: number }): { events: number; values: number; depth: number } {
  let events = 0;
  let values = 0;
  let depth = 0;
  let deepest = 0;
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

let parser: XMLParser | undefined;

function xmlParser(): XMLParser {
  return (parser ??= new XMLParser({
    ignoreAttributes: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    removeNSPrefix: true,
    // Values stay strings exactly as sent ("0042", " Ada "), as JSON deliveries keep them.
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
  const attributeLimits = { attributes: MAX_XML_ATTRIBUTES, attributesPerElement: MAX_XML_ATTRIBUTES_PER_ELEMENT, attributeBytes: MAX_XML_ATTRIBUTE_BYTES, text: MAX_XML_TEXT_CHARS };
  const shape = scanXml(body, { events: maxEvents ?? Infinity, elements: MAX_XML_ELEMENTS, depth: MAX_XML_DEPTH, ...attributeLimits });
  if (maxEvents !== undefined && shape.events > maxEvents) throw new TooManyEventsError(maxEvents);
  if (shape.elements > MAX_XML_ELEMENTS) throw new TooManyElementsError(MAX_XML_ELEMENTS);
  if (shape.mostAttributes > MAX_XML_ATTRIBUTES_PER_ELEMENT) throw new OversizedDeliveryError(`more than ${MAX_XML_ATTRIBUTES_PER_ELEMENT} attributes on one XML element`);
  if (shape.attributes > MAX_XML_ATTRIBUTES) throw new OversizedDeliveryError(`more than ${MAX_XML_ATTRIBUTES} XML attributes in one delivery`);
  if (shape.attributeBytes > MAX_XML_ATTRIBUTE_BYTES) throw new OversizedDeliveryError(`XML attributes of more than ${MAX_XML_ATTRIBUTE_BYTES / 1024} KiB in one delivery`);
  if (shape.longestText > MAX_XML_TEXT_CHARS) throw new OversizedDeliveryError(`more than ${MAX_XML_TEXT_CHARS} characters of XML text in one element`);
  if (shape.depth > MAX_XML_DEPTH) throw new MalformedDeliveryError(`XML nested deeper than ${MAX_XML_DEPTH} elements (a delivery nests 6)`);
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    // The parser's message may quote every open element: the reason stays one short line.
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

/** Each child is an event, whatever its element name. */
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
