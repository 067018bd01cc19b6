// Builds delivery bodies the way the service sends them (service-spec.md
// "Events" rule 2), JSON or XML. The XML form is the one docs/sandbox.md
// documents: <Webhook><Events><Event>…</Event></Events><ListID>…</ListID></Webhook>,
// element names equal to the JSON field names, absent fields omitted.
import { XMLBuilder } from 'fast-xml-parser';
import { CONTENT_TYPES, type DeliveryFormat, type WebhookDelivery, type WebhookEvent } from './events.js';

export interface EncodedDelivery {
  body: string;
  contentType: string;
}

export function encodeDelivery(format: DeliveryFormat, delivery: WebhookDelivery): EncodedDelivery {
  if (format === 'json') return { body: JSON.stringify({ Events: delivery.Events, ListID: delivery.ListID }), contentType: CONTENT_TYPES.json };
  return { body: encodeXml(delivery), contentType: CONTENT_TYPES.xml };
}

let builder: XMLBuilder | undefined;

function encodeXml(delivery: WebhookDelivery): string {
  builder ??= new XMLBuilder({ format: false, ignoreAttributes: true, suppressEmptyNode: false, processEntities: true });
  const document = {
    Webhook: {
      Events: { Event: delivery.Events.map(xmlEvent) },
      ListID: xmlText(delivery.ListID),
    },
  };
  return `<?xml version="1.0" encoding="utf-8"?>${builder.build(document)}`;
}

function xmlEvent(event: WebhookEvent): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(event)) {
    if (value === undefined || value === null) continue;
    if (name === 'CustomFields' && Array.isArray(value)) {
      out.CustomFields = { CustomField: value.map((f: { Key: unknown; Value: unknown }) => ({ Key: xmlText(String(f.Key)), Value: xmlText(String(f.Value)) })) };
    } else {
      out[name] = xmlText(typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
  }
  return out;
}

/** XML 1.0 cannot carry most C0 controls at all, escaped or not; they are dropped. */
function xmlText(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');
}
