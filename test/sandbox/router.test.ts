// The sandbox's router and response helpers (src/sandbox/router.ts): route
// matching, the two error shapes of service-spec.md "Errors", and the one
// "body must be a JSON object" check every route with a request body uses.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, SEED_SENT_CAMPAIGN } from '../../src/sandbox/index.js';
import { badRequest, coded, requireBodyObject, RouteError, Router, statusError, type RouteDef } from '../../src/sandbox/router.js';
import { useSandbox } from '../helpers/sandbox.js';

const route = (method: RouteDef['method'], pattern: string): RouteDef => ({ method, pattern, handler: () => ({ status: 200 }) });

describe('Router', () => {
  const segmentGet = route('GET', '/email/segments/:segmentId');
  const segmentRules = route('GET', '/email/segments/:segmentId/rules');
  const literal = route('GET', '/email/segments/special');
  const segmentPut = route('PUT', '/email/segments/:segmentId');
  const router = new Router([segmentGet, segmentRules, segmentPut, literal]);

  it('matches on method and segment count, and names the parameters, URI-decoded', () => {
    expect(router.match('GET', '/email/segments/a%20b')).toEqual({ def: segmentGet, params: { segmentId: 'a b' } });
    expect(router.match('GET', '/email/segments/x/rules')).toEqual({ def: segmentRules, params: { segmentId: 'x' } });
    expect(router.match('DELETE', '/email/segments/x')).toBeUndefined();
    expect(router.match('GET', '/email/segments/x/rules/more')).toBeUndefined();
  });

  it('prefers a literal segment over a parameter, whatever the order of the routes', () => {
    expect(router.match('GET', '/email/segments/special')?.def).toBe(literal);
  });

  it('ignores empty segments (a trailing or doubled slash)', () => {
    expect(router.match('GET', '//email/segments/x/')?.params).toEqual({ segmentId: 'x' });
  });

  it('does not match a parameter that is not valid percent-encoding', () => {
    expect(router.match('GET', '/email/segments/%E0%A4%A')).toBeUndefined();
  });

  it('lists the methods a path accepts (for a 405 Allow header), none for an unknown path', () => {
    expect(router.allowedMethods('/email/segments/x').sort()).toEqual(['GET', 'PUT']);
    expect(router.allowedMethods('/email/nothing')).toEqual([]);
  });
});

describe('error shapes (service-spec.md "Errors")', () => {
  it('a coded error is a 400 {Code, Message}, with ResultData only when given', () => {
    expect(coded(212, 'No subscribers in batch.')).toEqual({ status: 400, body: { Code: 212, Message: 'No subscribers in batch.' } });
    expect(coded(210, 'failures', { a: 1 }).body).toEqual({ Code: 210, Message: 'failures', ResultData: { a: 1 } });
  });

  it('a status error is {status, message}; a generic 400 is one', () => {
    expect(statusError(404, 'gone')).toEqual({ status: 404, body: { status: 404, message: 'gone' }, headers: undefined });
    expect(badRequest('bad').body).toEqual({ status: 400, message: 'bad' });
  });

  it('RouteError carries the response and reads its message from either shape', () => {
    expect(new RouteError(coded(1, 'Invalid email address.')).message).toBe('Invalid email address.');
    expect(new RouteError(statusError(401, 'no key')).message).toBe('no key');
    expect(new RouteError({ status: 500 }).message).toBe('HTTP 500');
  });
});

describe('requireBodyObject', () => {
  it('returns a JSON object as it is', () => {
    const body = { Title: 'x' };
    expect(requireBodyObject(body, 'the segment')).toBe(body);
  });

  it.each([['an array', []], ['null', null], ['a string', 'x'], ['a number', 1], ['no body', undefined]])(
    'refuses %s with a generic 400 in the status shape naming what the body should hold',
    (_kind, body) => {
      let thrown: unknown;
      try {
        requireBodyObject(body, 'the template');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(RouteError);
      expect((thrown as RouteError).response).toEqual({
        status: 400,
        body: { status: 400, message: 'The request body must be a JSON object (the template).' },
        headers: undefined,
      });
    },
  );
});

describe('every route taking a body refuses one that is not an object the same way, over HTTP', () => {
  const c = useSandbox({}, 'all');
  const list = SEED_LIST_IDS.newsletter;
  const campaign = SEED_SENT_CAMPAIGN.CampaignID;

  it('answers each with 400 {status: 400, message: "The request body must be a JSON object (…)."}', async () => {
    const made = await c.call('POST', `/email/segments/${list}`, { Title: 'Router check' });
    expect(made.status, made.text).toBe(201);
    const segment = made.body as string;
    const routes: [string, string, string][] = [
      ['POST', `/email/subscribers/${list}`, 'the subscriber'],
      ['PUT', `/email/subscribers/${list}?email=ada%40example.com`, 'the subscriber'],
      ['POST', `/email/subscribers/${list}/import`, 'the import request'],
      ['POST', `/email/segments/${list}`, 'Title and optional RuleGroups'],
      ['PUT', `/email/segments/${segment}`, 'Title and optional RuleGroups'],
      ['POST', `/email/segments/${segment}/rules`, '{Rules: [...]}'],
      ['POST', '/email/campaigns', 'the draft campaign'],
      ['POST', `/email/campaigns/${campaign}/sendpreview`, '{PreviewRecipients: [...]}'],
      ['POST', '/email/templates', 'the template'],
      ['POST', `/email/lists/${list}/customfields`, 'the custom field definition'],
    ];
    for (const [method, path, what] of routes) {
      for (const body of [[1], 'text', null]) {
        const answer = await c.call(method, path, body);
        expect({ route: `${method} ${path} ${JSON.stringify(body)}`, status: answer.status, body: answer.body }).toEqual({
          route: `${method} ${path} ${JSON.stringify(body)}`,
          status: 400,
          body: { status: 400, message: `The request body must be a JSON object (${what}).` },
        });
      }
    }
  });
});
