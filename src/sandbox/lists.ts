// Look-ups shared by the list-bound routes.
import { canonicalId, isUuid } from './identifiers.js';
import { failStatus, type SandboxContext } from './router.js';
import type { SubscriberList } from './types.js';

/**
 * The list, or an error in the status shape: a generic 400 for an id that is
 * not a UUID (spec "Conventions": {listId} is a UUID; "Errors": a generic 400
 * is an invalid request), as for segment and campaign ids; 404 for a
 * well-formed id of no list. service-spec.md "Errors" documents the 404 for
 * create segment and create custom field; the sandbox answers the same way on
 * the other list-bound endpoints, where the spec shows no answer.
 */
export function requireList(ctx: SandboxContext, listId: string): SubscriberList {
  if (!isUuid(listId)) failStatus(400, `Invalid list ID: ${listId} is not a UUID.`);
  const key = canonicalId(listId);
  const list = Object.hasOwn(ctx.state.lists, key) ? ctx.state.lists[key] : undefined;
  if (!list) failStatus(404, `List ${listId} does not exist.`);
  return list;
}
