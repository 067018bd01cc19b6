// Decoding of deliveries (service-spec.md "Events" rule 2), against the
// sandbox's and the encoder's forms, and the event limit (rule 3).
import { describe, expect, it } from 'vitest';
import { toXml as sandboxXml } from '../../src/sandbox/webhooks.js';
import { decodeDelivery, detectFormat, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../src/webhooks/decode.js';
import { encodeDelivery } from '../../src/webhooks/encode.js';
import { MalformedDeliveryError, OversizedDeliveryError, TooManyEventsError, type WebhookDelivery } from '../../src/webhooks/events.js';
import { MANUAL_SIGNUP_MARKER, syntheticEvents } from '../../src/webhooks/synthetic.js';
import {
  countXmlEvents,
  MAX_XML_ATTRIBUTE_BYTES,
  MAX_XML_ATTRIBUTES,
  MAX_XML_ATTRIBUTES_PER_ELEMENT,
  MAX_XML_DEPTH,
  MAX_XML_ELEMENTS,
  MAX_XML_TEXT_CHARS,
} from '../../src/webhooks/xml-scan.js';

const LIST = '11111111-1111-4111-8111-111111111111';

const delivery: WebhookDelivery = {
  Events: [
    {
      Type: 'Subscribe',
      Date: '2025-03-04 05:06:07',
      EmailAddress: 'ada@example.com',
      Name: ' Ada & <Co> "quoted" ',
      CustomFields: [
        { Key: '[Interests]', Value: 'News' },
        { Key: '[Interests]', Value: 'Events' },
        { Key: '[Age]', Value: '0042' },
        { Key: '[Note]', Value: '' },
      ],
      SignupIPAddress: 'Manually Entered',
    },
    { Type: 'Update', Date: '2025-03-04 05:06:08', OldEmailAddress: 'old@example.com', EmailAddress: 'new@example.com', Name: 'N', State: 'Active', CustomFields: [] },
    { Type: 'Deactivate', Date: '2025-03-04 05:06:09', EmailAddress: 'gone@example.com', Name: 'G', State: 'Unsubscribed', CustomFields: [] },
  ],
  ListID: LIST,
};

describe('decoding deliveries', () => {
  it('reads a JSON delivery unchanged', () => {
    const decoded = decodeDelivery(JSON.stringify(delivery), 'application/json');
    expect(decoded).toEqual({ format: 'json', delivery });
  });

  it("reads the sandbox's XML form into the same events as the JSON form, strings kept exactly", () => {
    const xml = sandboxXml(LIST, delivery.Events as Parameters<typeof sandboxXml>[1]);
    expect(decodeDelivery(xml, 'application/xml')).toEqual({ format: 'xml', delivery });
  });

  it('reads what encodeDelivery writes, JSON and XML', () => {
    for (const format of ['json', 'xml'] as const) {
      const { body, contentType } = encodeDelivery(format, delivery);
      expect(contentType).toBe(format === 'json' ? 'application/json' : 'application/xml');
      expect(decodeDelivery(body, contentType).delivery).toEqual(delivery);
    }
  });

  it('keeps a non-address SignupIPAddress marker and numeric-looking values as text', () => {
    const xml = `<Webhook><Events><Event><Type>Subscribe</Type><Name>007</Name><SignupIPAddress>${MANUAL_SIGNUP_MARKER}</SignupIPAddress><CustomFields><CustomField><Key>[Zip]</Key><Value>01234</Value></CustomField></CustomFields></Event></Events><ListID>${LIST}</ListID></Webhook>`;
    const event = decodeDelivery(xml).delivery.Events[0]!;
    expect(event).toEqual({ Type: 'Subscribe', Name: '007', SignupIPAddress: 'Manually Entered', CustomFields: [{ Key: '[Zip]', Value: '01234' }] });
  });

  it('accepts indented XML with a namespace, attributes, another root name and a single event', () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<hook:Callback xmlns:hook="urn:example" version="2">
  <hook:Events>
    <hook:Event id="1">
      <Type>Deactivate</Type>
      <EmailAddress>grace@example.com</EmailAddress>
      <State>Bounced</State>
      <CustomFields>
        <CustomField><Key>[Plan]</Key><Value/></CustomField>
      </CustomFields>
    </hook:Event>
  </hook:Events>
  <hook:ListID>${LIST}</hook:ListID>
</hook:Callback>`;
    expect(decodeDelivery(xml, 'text/xml; charset=utf-8').delivery).toEqual({
      Events: [{ Type: 'Deactivate', EmailAddress: 'grace@example.com', State: 'Bounced', CustomFields: [{ Key: '[Plan]', Value: '' }] }],
      ListID: LIST,
    });
  });

  it('reads empty <Events/> and <CustomFields/> as empty arrays', () => {
    expect(decodeDelivery(`<Webhook><Events/><ListID>${LIST}</ListID></Webhook>`).delivery).toEqual({ Events: [], ListID: LIST });
    const one = decodeDelivery(`<Webhook><Events><Event><Type>Update</Type><CustomFields/></Event></Events><ListID>x</ListID></Webhook>`);
    expect(one.delivery.Events).toEqual([{ Type: 'Update', CustomFields: [] }]);
  });

  it('decodes a 1000-event XML delivery full of escaped characters', () => {
    const events = [...syntheticEvents({ type: 'Update', count: 1000, end: new Date('2025-01-01T00:00:00Z') })].map((e) => ({ ...e, Name: `${e.Name} & <Sons> "Ltd"` }));
    const { body } = encodeDelivery('xml', { Events: events, ListID: LIST });
    expect(decodeDelivery(body).delivery.Events).toEqual(events);
  });

  it('detects the format from the Content-Type, else from the first character', () => {
    expect(detectFormat('<x/>', 'application/json')).toBe('json');
    expect(detectFormat('{}', 'application/soap+xml')).toBe('xml');
    expect(detectFormat('  {"Events":[]}', undefined)).toBe('json');
    expect(detectFormat('\ufeff<Webhook/>', 'text/plain')).toBe('xml');
  });

  const malformed: [string, string, string | undefined, RegExp][] = [
    ['invalid JSON', '{"Events": [', 'application/json', /^invalid JSON/],
    ['JSON without Events', `{"ListID":"${LIST}"}`, 'application/json', /Events is missing/],
    ['Events not an array', `{"Events":{},"ListID":"x"}`, undefined, /Events is not an array/],
    ['JSON without ListID', '{"Events":[]}', undefined, /ListID is missing/],
    ['an event that is not an object', '{"Events":[1],"ListID":"x"}', undefined, /Events\[0\] is not an object/],
    ['a JSON array', '[]', undefined, /not an object with Events and ListID/],
    ['unclosed XML element', '<Webhook><Events></Webhook>', 'application/xml', /^invalid XML at line 1, column \d+/],
    ['XML without ListID', '<Webhook><Events/></Webhook>', 'application/xml', /ListID is missing/],
    ['XML root with text only', '<Webhook>hello</Webhook>', 'application/xml', /has no Events and ListID/],
    ['an empty body', '', undefined, /the body is empty/],
    ['plain text', 'hello', 'text/plain', /neither JSON nor XML/],
  ];
  for (const [name, body, contentType, message] of malformed) {
    it(`refuses ${name} with a clear reason`, () => {
      expect(() => decodeDelivery(body, contentType)).toThrow(MalformedDeliveryError);
      expect(() => decodeDelivery(body, contentType)).toThrow(message);
    });
  }
});

describe('the event limit of a delivery (at most 1000, service-spec.md "Events" rule 3)', () => {
  const end = new Date('2025-01-01T00:00:00Z');
  const many = (n: number) => ({ Events: [...syntheticEvents({ type: 'Update', count: n, end })], ListID: LIST });

  it.each(['json', 'xml'] as const)('decodeDelivery with maxEvents refuses a %s delivery of one more event, and takes one of exactly that many', (format) => {
    const over = encodeDelivery(format, many(11));
    expect(() => decodeDelivery(over.body, over.contentType, { maxEvents: 10 })).toThrow(TooManyEventsError);
    const full = encodeDelivery(format, many(10));
    expect(decodeDelivery(full.body, full.contentType, { maxEvents: 10 }).delivery.Events).toHaveLength(10);
    // Without maxEvents (replay of a saved file) there is no limit.
    expect(decodeDelivery(over.body, over.contentType).delivery.Events).toHaveLength(11);
  });

  it('countXmlEvents counts the children of <Events> exactly, and stops counting past the limit', () => {
    const xml = encodeDelivery('xml', many(25)).body;
    expect(countXmlEvents(xml, 1000)).toBe(25);
    expect(countXmlEvents(xml, 3)).toBe(4);
    expect(countXmlEvents(`<W><Events/><ListID>x</ListID></W>`, 10)).toBe(0);
    // Children of an element named Events count wherever it sits (CLI.md `webhooks listen`): deeper down or elsewhere.
    expect(countXmlEvents(`<W><Events><E><Events><X/><X/></Events></E></Events><Other><Events><E/></Events></Other></W>`, 10)).toBe(4);
    expect(countXmlEvents(`<R><W><ns:Events><E/><E></E><E/></ns:Events></W></R>`, 10)).toBe(3);
    // A DOCTYPE with an internal subset, processing instructions, comments and CDATA are skipped.
    const skipped = `<?xml version="1.0"?><!DOCTYPE W [<!ELEMENT W ANY><!-- <E/> -->]><W><?pi <E/>?><Events><!-- <E/><E/> --><E a='1>2'><![CDATA[<E/><E/>]]></E><E/></Events></W>`;
    expect(countXmlEvents(skipped, 10)).toBe(2);
  });
});

describe('XML bounded before it is parsed (issue 19 point 3)', () => {
  // Each document ends with an unclosed element: a parse would call it
  // invalid XML; a refusal for its size proves the scan came first.
  const unclosed = '<Unclosed>';

  it('refuses 2.5 million events one level deeper (<R><W><Events>) as too many events, from the scan', () => {
    const body = `<R><W><Events>${'<E/>'.repeat(2_500_000)}</Events><ListID>${LIST}</ListID></W></R>${unclosed}`;
    expect(() => decodeDelivery(body, 'application/xml', { maxEvents: 1000 })).toThrow(TooManyEventsError);
  });

  it('refuses 2.5 million elements that are no events at all as too many elements, from the scan, with or without maxEvents', () => {
    const body = `<R><Foo>${'<E/>'.repeat(2_500_000)}</Foo><ListID>${LIST}</ListID></R>${unclosed}`;
    for (const options of [{ maxEvents: 1000 }, {}]) {
      expect(() => decodeDelivery(body, 'application/xml', options)).toThrow(OversizedDeliveryError);
      expect(() => decodeDelivery(body, 'application/xml', options)).toThrow(`more than ${MAX_XML_ELEMENTS} XML elements in one delivery`);
    }
  });

  it('refuses XML nested deeper than a delivery ever is, naming the depth, from the scan', () => {
    const body = `${'<a>'.repeat(1_000_000)}${unclosed}`;
    expect(() => decodeDelivery(body, 'application/xml')).toThrow(MalformedDeliveryError);
    expect(() => decodeDelivery(body, 'application/xml')).toThrow(`XML nested deeper than ${MAX_XML_DEPTH} elements`);
  });

  it('keeps the reason for invalid XML one short line, however long the names the parser would quote', () => {
    const body = `<W><Events>\n<${'n'.repeat(1_000_000)}></Events></W>`;
    let reason = '';
    try {
      decodeDelivery(body, 'application/xml');
    } catch (error) {
      reason = (error as Error).message;
    }
    expect(reason).toMatch(/^invalid XML at line 2, column \d+: /);
    expect(reason.length).toBeLessThan(300);
    expect(reason).not.toContain('\n');
  });

  it('refuses one element with 800,000 attributes (9 MB) as too many attributes, from the scan', () => {
    const body = `<R${Array.from({ length: 800_000 }, (_, i) => ` a${i}=""`).join('')}><Events/><ListID>${LIST}</ListID></R>${unclosed}`;
    expect(() => decodeDelivery(body, 'application/xml', { maxEvents: 1000 })).toThrow(OversizedDeliveryError);
    expect(() => decodeDelivery(body, 'application/xml')).toThrow(`more than ${MAX_XML_ATTRIBUTES_PER_ELEMENT} attributes on one XML element`);
  });

  it('refuses attributes spread over many elements as too many in all, from the scan', () => {
    const body = `<R><Events/><X>${'<F a="1" b="2"/>'.repeat(MAX_XML_ATTRIBUTES / 2 + 1)}</X><ListID>${LIST}</ListID></R>${unclosed}`;
    expect(() => decodeDelivery(body, 'application/xml')).toThrow(OversizedDeliveryError);
    expect(() => decodeDelivery(body, 'application/xml')).toThrow(`more than ${MAX_XML_ATTRIBUTES} XML attributes in one delivery`);
  });

  it('refuses attributes larger in all than a delivery ever carries, a single value too, from the scan', () => {
    const oneValue = `<R a="${'v'.repeat(9_000_000)}"><Events/><ListID>${LIST}</ListID></R>${unclosed}`;
    const quoted = `<R a='${'>'.repeat(MAX_XML_ATTRIBUTE_BYTES)}'><Events/><ListID>${LIST}</ListID></R>${unclosed}`;
    for (const body of [oneValue, quoted]) {
      expect(() => decodeDelivery(body, 'application/xml')).toThrow(OversizedDeliveryError);
      expect(() => decodeDelivery(body, 'application/xml')).toThrow(`XML attributes of more than ${MAX_XML_ATTRIBUTE_BYTES / 1024} KiB in one delivery`);
    }
  });

  it('refuses a text longer than the bound in one element, from the scan, whether CDATA, comments or instructions cut it', () => {
    const over = MAX_XML_TEXT_CHARS + 1;
    const half = 'x'.repeat(Math.ceil(over / 2));
    const bodies = [
      `<R><Events/><ListID>${'x'.repeat(over)}</ListID></R>${unclosed}`,
      `<R><Events/><ListID><![CDATA[${'x'.repeat(over)}]]></ListID></R>${unclosed}`,
      `<R><Events/><ListID>${half}<!-- a comment -->${half}</ListID></R>${unclosed}`,
      `<R><Events/><ListID>${half}<?pi?><![CDATA[${half}]]></ListID></R>${unclosed}`,
      `<R><Events/><ListID>${LIST}</ListID></R>${'x'.repeat(over)}`,
    ];
    for (const body of bodies) expect(() => decodeDelivery(body, 'application/xml'), body.slice(0, 60)).toThrow(`more than ${MAX_XML_TEXT_CHARS} characters of XML text in one element`);
  });

  it('takes texts up to the bound, and more text in all when elements separate it', () => {
    const name = 'n'.repeat(MAX_XML_TEXT_CHARS);
    const events = Array.from({ length: 3 }, (_, i) => `<Event><Type>Subscribe</Type><EmailAddress>p${i}@example.com</EmailAddress><Name>${name}</Name></Event>`).join('');
    const { delivery } = decodeDelivery(`<R><Events>${events}</Events><ListID>${LIST}</ListID></R>`, 'application/xml');
    expect(delivery.Events.map((e) => (e as { Name: string }).Name.length)).toEqual([MAX_XML_TEXT_CHARS, MAX_XML_TEXT_CHARS, MAX_XML_TEXT_CHARS]);
  });

  it('takes a 1000-event delivery with namespaces and a few attributes on every element, within the attribute bounds', () => {
    const event = (n: number) =>
      `<hook:Event id="${n}" kind="subscriber" xml:lang="en"><Type xsi:type="string">Subscribe</Type><EmailAddress verified="true">p${n}@example.com</EmailAddress><CustomFields/></hook:Event>`;
    const xml = `<hook:Callback xmlns:hook="urn:example:hooks" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="2" sent="2025-01-01T00:00:00Z"><hook:Events>${Array.from({ length: 1000 }, (_, n) => event(n)).join('')}</hook:Events><hook:ListID>${LIST}</hook:ListID></hook:Callback>`;
    expect(decodeDelivery(xml, 'application/xml', { maxEvents: 1000 }).delivery.Events).toHaveLength(1000);
  });

  it('takes a 1000-event delivery with 30 custom fields per event, within both bounds', () => {
    const events = [...syntheticEvents({ type: 'Subscribe', count: 1000, end: new Date('2025-01-01T00:00:00Z') })].map((e) => ({
      ...e,
      CustomFields: Array.from({ length: 30 }, (_, k) => ({ Key: `[F${k}]`, Value: String(k) })),
    }));
    const { body } = encodeDelivery('xml', { Events: events, ListID: LIST });
    expect(decodeDelivery(body, 'application/xml', { maxEvents: 1000 }).delivery.Events).toEqual(events);
  });
});

describe('JSON bounded before it is parsed', () => {
  it('refuses more than maxEvents events one level deeper ({"R":{"Events":[…]}}) as too many events', () => {
    const body = `{"R":{"Events":[${Array(1001).fill('{}').join(',')}]},"ListID":"x"}`;
    expect(() => decodeDelivery(body, 'application/json', { maxEvents: 1000 })).toThrow(TooManyEventsError);
    // Keys and strings that only look like events count for nothing.
    const lookalike = `{"Events":[{"Name":"Events [{},{}]"}],"ListID":"x","Other":{"Events\\"":1}}`;
    expect(decodeDelivery(lookalike, 'application/json', { maxEvents: 1 }).delivery.Events).toHaveLength(1);
  });

  it('refuses 3.3 million values that are no events at all as too many values, from the scan, with or without maxEvents', () => {
    // Cut short at its end: a parse would call it invalid JSON; the scan comes first.
    const body = `{"Events":[],"ListID":"x","R":[${'0,'.repeat(3_300_000)}0]`;
    for (const options of [{ maxEvents: 1000 }, {}]) {
      expect(() => decodeDelivery(body, 'application/json', options)).toThrow(OversizedDeliveryError);
      expect(() => decodeDelivery(body, 'application/json', options)).toThrow(`more than ${MAX_JSON_VALUES} JSON values in one delivery`);
    }
  });

  it('refuses JSON nested deeper than a delivery ever is', () => {
    const body = `{"Events":[],"ListID":"x","R":${'['.repeat(100)}${']'.repeat(100)}}`;
    expect(() => decodeDelivery(body, 'application/json')).toThrow(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('takes a 1000-event JSON delivery with 30 custom fields per event', () => {
    const events = [...syntheticEvents({ type: 'Subscribe', count: 1000, end: new Date('2025-01-01T00:00:00Z') })].map((e) => ({
      ...e,
      CustomFields: Array.from({ length: 30 }, (_, k) => ({ Key: `[F${k}]`, Value: `"${k}"\\` })),
    }));
    const body = JSON.stringify({ Events: events, ListID: LIST });
    expect(decodeDelivery(body, 'application/json', { maxEvents: 1000 }).delivery.Events).toEqual(events);
  });
});
