// Delivery bodies as the service sends them (service-spec.md "Events" rule 2):
// JSON, or the XML form docs/sandbox.md documents.
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { encodeDelivery } from '../../src/webhooks/encode.js';
import type { WebhookDelivery } from '../../src/webhooks/events.js';

const delivery: WebhookDelivery = {
  Events: [
    {
      Type: 'Subscribe',
      Date: '2025-03-04 05:06:07',
      EmailAddress: 'ada@example.com',
      Name: 'Ada & <Co>\u0001\u0007',
      CustomFields: [
        { Key: '[Interests]', Value: 'News' },
        { Key: '[Interests]', Value: 'Events' },
      ],
      SignupIPAddress: '203.0.113.1',
    },
    { Type: 'Deactivate', Date: '2025-03-04 05:06:09', EmailAddress: 'gone@example.com', Name: 'G', State: 'Unsubscribed', CustomFields: [] },
  ],
  ListID: 'list-1',
};

describe('encodeDelivery', () => {
  it('writes JSON with Events then ListID, and nothing else', () => {
    const encoded = encodeDelivery('json', { ...delivery, Extra: 1 } as WebhookDelivery);
    expect(encoded.contentType).toBe('application/json');
    expect(Object.keys(JSON.parse(encoded.body))).toEqual(['Events', 'ListID']);
    expect(JSON.parse(encoded.body)).toEqual(delivery);
  });

  it('writes XML as <Webhook><Events><Event>…</Event></Events><ListID>…</ListID></Webhook>, text escaped', () => {
    const encoded = encodeDelivery('xml', delivery);
    expect(encoded.contentType).toBe('application/xml');
    expect(encoded.body.startsWith('<?xml version="1.0" encoding="utf-8"?><Webhook><Events><Event><Type>Subscribe</Type>')).toBe(true);
    expect(encoded.body).toContain('<Name>Ada &amp; &lt;Co&gt;</Name>');
    expect(encoded.body).toContain('<CustomFields><CustomField><Key>[Interests]</Key><Value>News</Value></CustomField><CustomField><Key>[Interests]</Key><Value>Events</Value></CustomField></CustomFields>');
    expect(encoded.body.endsWith('</Events><ListID>list-1</ListID></Webhook>')).toBe(true);
  });

  it('drops the C0 controls XML 1.0 cannot carry, and leaves out absent fields', () => {
    const body = encodeDelivery('xml', {
      Events: [{ Type: 'Update', Date: 'd', EmailAddress: 'a@example.com', Name: 'N\u0000\tx', State: undefined, CustomFields: [] } as never],
      ListID: 'l',
    }).body;
    // eslint-disable-next-line no-control-regex
    expect(body).not.toMatch(/[\u0000-\u0008]/);
    expect(body).toContain('<Name>N\tx</Name>');
    expect(body).not.toContain('<State>');
    const parsed = new XMLParser().parse(body);
    expect(parsed.Webhook.ListID).toBe('l');
  });
});
