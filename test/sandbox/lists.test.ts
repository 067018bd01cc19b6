// The list look-up of the list-bound routes (src/sandbox/lists.ts): a
// generic 400 for an id that is not a UUID, 404 for an unknown list.
import { describe, expect, it } from 'vitest';
import { requireList } from '../../src/sandbox/lists.js';
import { RouteError } from '../../src/sandbox/router.js';
import type { SubscriberList } from '../../src/sandbox/types.js';
import { bareContext } from '../helpers/sandbox-context.js';

const ID = '11111111-1111-4111-8111-11111111aaaa';
const list: SubscriberList = { ListID: ID, Name: 'N', ConfirmedOptIn: false, CustomFields: [], Subscribers: {} };

function answer(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof RouteError) return error.response;
    throw error;
  }
  return undefined;
}

describe('requireList', () => {
  const ctx = bareContext({ lists: { [ID]: list } });

  it('finds the list whatever the letter case of the id', () => {
    expect(requireList(ctx, ID)).toBe(list);
    expect(requireList(ctx, ID.toUpperCase())).toBe(list);
  });

  it('answers a generic 400 for an id that is not a UUID, 404 for no such list', () => {
    expect(answer(() => requireList(ctx, 'abc'))).toEqual({ status: 400, body: { status: 400, message: 'Invalid list ID: abc is not a UUID.' }, headers: undefined });
    expect(answer(() => requireList(ctx, '99999999-9999-4999-8999-999999999999'))?.status).toBe(404);
  });

  it('does not take an inherited property for a list', () => {
    expect(answer(() => requireList(bareContext({ lists: {} }), '__proto__'))?.status).toBe(400);
    const constructorLike = bareContext({ lists: Object.create({ [ID]: list }) as Record<string, SubscriberList> });
    expect(answer(() => requireList(constructorLike, ID))?.status).toBe(404);
  });
});
