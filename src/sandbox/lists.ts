// Look-ups shared by the list-bound routes.
import { failStatus, type SandboxContext } from './router.js';
import type { SubscriberList } from './types.js';

/**
 * The list, or a 404 in the status shape. service-spec.md "Errors" documents
 * the 404 for create segment and create custom field; the sandbox answers the
 * same way on the other list-bound endpoints, where the spec shows no answer.
 */
export function requireList(ctx: SandboxContext, listId: string): SubscriberList {
  const list = Object.hasOwn(ctx.state.lists, listId) ? ctx.state.lists[listId] : undefined;
  if (!list) failStatus(404, `List ${listId} does not exist.`);
  return list;
}
