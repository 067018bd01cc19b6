// Whatever a client sends, the sandbox answers in one of the service's two
// error shapes (service-spec.md "Errors") with a code the spec lists for that
// endpoint, or a clean 400/404/405/413/415/431 — never a 500, never a crash. The
// table below sends every route bodies of the wrong JSON type at every field,
// then whole bodies that are not what any route expects.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { SEED_CAMPAIGN_IDS, SEED_SEGMENT_IDS, SEED_SMART_EMAIL_IDS } from '../../src/sandbox/seed-campaigns.js';
import { useRunningSandbox } from '../helpers/sandbox.js';

const L = SEED_LIST_IDS.newsletter;
const SEGMENT = SEED_SEGMENT_IDS.newsletterRecentExample;
const DRAFT = SEED_CAMPAIGN_IDS.autumnDraft;
const SENT = SEED_CAMPAIGN_IDS.welcome;

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const TEMPLATE_CODES = [...range(4002, 4006), ...range(4101, 4132), ...range(4201, 4203), ...range(4300, 4307), 4350, ...range(4401, 4406), ...range(4501, 4511)];
const DRAFT_CODES = [...range(303, 326), 4201, 4202, 4203, ...range(4302, 4307)];

interface RouteCase {
  method: string;
  path: string;
  /** A body the route accepts; each of its fields is replaced in turn. Undefined for routes without a body. */
  body?: Record<string, unknown>;
  /** Coded errors service-spec.md lists for the endpoint. */
  codes: number[];
}

const subscriber = { EmailAddress: 'fuzz@example.com', Name: 'F', CustomFields: [{ Key: 'Interests', Value: 'News' }], ConsentToTrack: 'Yes', Resubscribe: true, RestartSubscriptionBasedAutoresponders: false };
const routes: RouteCase[] = [
  { method: 'POST', path: `/email/subscribers/${L}`, body: subscriber, codes: [1, 204, 205, 206, 207, 208, 214, 215] },
  { method: 'PUT', path: `/email/subscribers/${L}?email=alan@example.com`, body: { ...subscriber, EmailAddress: 'alan@example.com' }, codes: [1, 201, 203, 211, 214, 215] },
  {
    method: 'POST',
    path: `/email/subscribers/${L}/import`,
    body: { Subscribers: [{ ...subscriber, ConsentToTrack: 'Unchanged' }], Resubscribe: false, QueueSubscriptionBasedAutoResponders: false, RestartSubscriptionBasedAutoresponders: false },
    codes: [209, 210, 212, 214, 215],
  },
  { method: 'GET', path: `/email/subscribers/${L}/history?email=ada@example.com`, codes: [1, 203] },
  { method: 'GET', path: '/email/clients/listsforemail?email=ada@example.com', codes: [1] },
  { method: 'POST', path: `/email/lists/${L}/customfields`, body: { FieldName: 'Fuzz', DataType: 'MultiSelectOne', FieldOptions: ['A'], VisibleInPreferenceCenter: true }, codes: [254, 255, 256, 257, 259] },
  { method: 'POST', path: `/email/segments/${L}`, body: { Title: 'Fuzz', RuleGroups: [{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @a' }] }] }, codes: [273, 275, 277, 283] },
  { method: 'GET', path: `/email/segments/${SEGMENT}`, codes: [] },
  { method: 'PUT', path: `/email/segments/${SEGMENT}`, body: { Title: 'Fuzz 2', RuleGroups: [{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @a' }] }] }, codes: [272, 273, 275, 277, 278, 283, 284] },
  { method: 'POST', path: `/email/segments/${SEGMENT}/rules`, body: { Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @a' }] }, codes: [277, 283, 284] },
  { method: 'DELETE', path: `/email/segments/${SEGMENT}/rules`, codes: [284] },
  {
    method: 'POST',
    path: '/email/campaigns',
    body: { Name: 'Fuzz', Subject: 'S', FromName: 'F', FromEmail: 'f@example.com', ReplyTo: 'r@example.com', HtmlUrl: 'https://example.com/c.html', TextUrl: 'https://example.com/c.txt', ListIDs: [L] },
    codes: DRAFT_CODES,
  },
  { method: 'POST', path: `/email/campaigns/${DRAFT}/sendpreview`, body: { PreviewRecipients: ['p@example.com'], Personalize: 'Fallback' }, codes: [333, 340, 370, 371, 373, 374, 375, 376] },
  { method: 'POST', path: `/email/campaigns/${SEED_CAMPAIGN_IDS.summerLaunch}/unschedule`, codes: [341] },
  { method: 'GET', path: `/email/campaigns/${SENT}/unsubscribes?page=2&pagesize=10`, codes: [5, 800, 801, 802, 803] },
  { method: 'GET', path: `/email/campaigns/${SENT}/summary`, codes: [] },
  { method: 'GET', path: '/email/clients/scheduled', codes: [] },
  { method: 'GET', path: '/email/clients/campaigns', codes: [] },
  { method: 'POST', path: '/email/templates', body: { Name: 'Fuzz', HtmlPageURL: 'https://example.com/t.html', ZipFileURL: 'https://example.com/t.zip' }, codes: TEMPLATE_CODES },
  { method: 'GET', path: '/email/transactional/smartEmail?status=all', codes: [932, 993, 994] },
  { method: 'GET', path: `/email/transactional/smartEmail/${SEED_SMART_EMAIL_IDS.passwordReset}`, codes: [926, 993, 994] },
  { method: 'GET', path: '/email/transactional/statistics', codes: [920, 921, 922, 923, 924, 925, 993, 994] },
];

/** JSON text of arrays nested 100,000 deep: spliced into bodies as text, since JSON.stringify cannot write it. */
const DEEPLY_NESTED = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
const DEEP_MARKER = '"__deeply nested__"';
/** Values of the wrong JSON type (or of the right type and unusual content) for any field. */
const wrongValues: unknown[] = [null, true, 0, -1.5, 1e308, '', ' ', 'x'.repeat(300_000), 'é😀\u0000\u202e', [], [null], [1, 'a', {}], {}, { Key: 1 }, [[[['deep']]]], JSON.parse(DEEP_MARKER)];

/** Whole request bodies no route expects (raw bytes). */
const rawBodies: Buffer[] = [
  'null', '[]', '123', '"text"', 'true', '{', '{"a":', '[1,]', "{'single': 1}", '{"a":1}{"b":2}', 'NaN',
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
  JSON.stringify({ __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } }),
].map((text) => Buffer.from(text)).concat([Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), Buffer.from([0xc3])]);

const internalErrors: string[] = [];
const sandbox = useRunningSandbox({ recordRequests: false, onInternalError: (error, method, path) => internalErrors.push(`${method} ${path}: ${String(error)}`) }, 'all');

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request with exactly these bytes and headers (fetch would add a Content-Type of its own). */
function send(method: string, path: string, body?: Buffer, contentType: string | null = 'application/json'): Promise<RawAnswer> {
  const { hostname, port } = new URL(sandbox.url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { Authorization: `Bearer ${sandbox.apiKey}` };
    if (body !== undefined) headers['Content-Length'] = body.length;
    if (body !== undefined && contentType !== null) headers['Content-Type'] = contentType;
    const req = request({ host: hostname, port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The answer is a success, a coded error the spec lists for the route, or a status error among the clean ones. */
function expectCleanAnswer(answer: RawAnswer, route: RouteCase, what: string) {
  const context = `${route.method} ${route.path} ${what} → ${answer.status} ${answer.text.slice(0, 200)}`;
  expect([200, 201, 400, 404, 405, 413, 415, 431], context).toContain(answer.status);
  if (answer.status < 300) return;
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  if ('Code' in body) {
    expect(answer.status, context).toBe(400);
    expect(route.codes, context).toContain(body.Code);
    expect(typeof body.Message, context).toBe('string');
  } else {
    expect(body, context).toEqual({ status: answer.status, message: expect.any(String) });
  }
}

describe('every route, every field of the wrong type', () => {
  for (const route of routes.filter((r) => r.body !== undefined)) {
    it(`${route.method} ${route.path.split('?')[0]}`, async () => {
      for (const field of Object.keys(route.body!)) {
        for (const value of wrongValues) {
          const body = Buffer.from(JSON.stringify({ ...route.body, [field]: value }).replace(DEEP_MARKER, DEEPLY_NESTED));
          expectCleanAnswer(await send(route.method, route.path, body), route, `${field}=${JSON.stringify(value)?.slice(0, 40)}`);
        }
      }
      expect(internalErrors).toEqual([]);
    });
  }
});

describe('every route, bodies nobody expects', () => {
  it('answers malformed, oddly encoded, deeply nested and unlabelled bodies cleanly on every route', async () => {
    for (const route of routes) {
      for (const raw of rawBodies) expectCleanAnswer(await send(route.method, route.path, raw), route, raw.toString('latin1').slice(0, 40));
      expectCleanAnswer(await send(route.method, route.path, Buffer.from('{}'), null), route, 'no Content-Type');
      expectCleanAnswer(await send(route.method, route.path, Buffer.from('{}'), 'text/plain'), route, 'text/plain');
    }
    expect(internalErrors).toEqual([]);
  });

  it('answers every other method on a route 405 with an Allow header, and unknown paths 404', async () => {
    for (const route of routes) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
        const answer = await send(method, route.path, method === 'GET' || method === 'DELETE' ? undefined : Buffer.from('{}'));
        // Another route may answer (add vs update subscriber), so any code of any route is acceptable here.
        expectCleanAnswer(answer, { ...route, codes: routes.flatMap((r) => r.codes) }, method);
        if (answer.status === 405) expect(String(answer.headers.allow)).toContain(route.method);
        // Another route may serve this method on the same path (add and update subscriber); /email/segments/{id}
        // is shared too: POST creates on a list, GET and PUT read and change a segment.
        const served = routes.some((r) => r.method === method && r.path.split('?')[0] === route.path.split('?')[0]);
        const sharedPath = /^\/email\/segments\/[^/]+$/.test(route.path);
        if (!served && !sharedPath) expect(answer.status, `${method} ${route.path}`).toBe(405);
      }
    }
    for (const path of ['/email', '/email/unknown', '/email//segments', '/email/segments/%E0%A4%A', `/email/subscribers/${L}/history/extra`]) {
      expect((await send('GET', path)).status, path).toBe(404);
    }
  });

  it('answers ids that are not UUIDs (odd bytes, traversal, huge) with a generic 400, 404 or the route code', async () => {
    const ids = ['x', '..%2F..%2Fetc', '%00', '%F0%9F%98%80', 'a'.repeat(20_000), `${L}%20`, `{${L}}`];
    for (const id of ids) {
      for (const route of routes) {
        const path = route.path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, id);
        if (path === route.path) continue;
        expectCleanAnswer(await send(route.method, path, route.body && Buffer.from(JSON.stringify(route.body))), route, id.slice(0, 30));
      }
    }
    expect(internalErrors).toEqual([]);
  });
});

describe('request bodies (service-spec.md "Conventions": JSON, Content-Type: application/json)', () => {
  const add = (email: string) => Buffer.from(JSON.stringify({ ...subscriber, EmailAddress: email }));
  const stored = (email: string) => sandbox.state().lists[L].Subscribers[email];

  it('refuses a body without Content-Type, or with another media type, with 415 and adds nobody', async () => {
    for (const contentType of [null, 'text/plain', 'application/x-www-form-urlencoded']) {
      const answer = await send('POST', `/email/subscribers/${L}`, add('ct@example.com'), contentType);
      expect(answer.status, String(contentType)).toBe(415);
      expect(JSON.parse(answer.text)).toEqual({ status: 415, message: expect.stringContaining('application/json') });
    }
    expect(stored('ct@example.com')).toBeUndefined();
    expect((await send('POST', `/email/subscribers/${L}`, add('ct@example.com'), 'Application/JSON; charset=utf-8')).status).toBe(201);
  });

  it('refuses a body that is not valid UTF-8 with a generic 400 instead of storing replacement characters', async () => {
    const bytes = Buffer.concat([Buffer.from('{"EmailAddress":"u8@example.com","Name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","CustomFields":[],"ConsentToTrack":"Yes","Resubscribe":false}')]);
    const answer = await send('POST', `/email/subscribers/${L}`, bytes);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({ status: 400, message: expect.stringContaining('UTF-8') });
    expect(stored('u8@example.com')).toBeUndefined();
  });

  it('accepts a UTF-8 body that starts with a byte order mark', async () => {
    const answer = await send('POST', `/email/subscribers/${L}`, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), add('bom@example.com')]));
    expect(answer.status).toBe(201);
  });

  it('still answers normally after all of the above', async () => {
    expect((await send('GET', '/email/clients/listsforemail?email=ada@example.com')).status).toBe(200);
    expect(internalErrors).toEqual([]);
  });
});
