// Subscribers (service-spec.md "Endpoints" → "Subscribers", "States and
// transitions", "Coded errors by area" → "Subscribers and lists").
import { isServiceAddress } from '../address.js';
import {
  FieldIndex,
  applyCustomFieldItems,
  checkCustomFieldItems,
  jsonKind,
  type CustomFieldItem,
} from '../custom-field-values.js';
import { serviceDateTime } from '../dates.js';
import { requireList } from '../lists.js';
import { badRequest, coded, created, ok, requireBodyObject, RouteError, type RouteDef, type SandboxContext } from '../router.js';
import { subscribeEvent, updateEvent } from '../subscriber-events.js';
import type { Subscriber, SubscriberList, SubscriberState } from '../types.js';

/** service-spec.md "Limits": subscribers per import call. */
const IMPORT_BATCH_LIMIT = 1000;

/**
 * Code used in FailureDetails (and the generic 400 of add/update) for a custom
 * field value over 250 characters: the spec gives the limit ("Limits") but no
 * code for it, so the sandbox reports it as a plain bad request.
 */
const VALUE_TOO_LONG_CODE = 400;

const MESSAGES = {
  1: 'Invalid email address.',
  201: 'New email address already subscribed to the list.',
  203: 'Subscriber not in the list.',
  204: 'Address in the suppression list; not added.',
  205: 'Address in the deleted list; not added.',
  206: 'Address in the unsubscribed list; not added.',
  207: 'Address in the bounced list; not added.',
  208: 'Address in the unconfirmed list; not added.',
  209: 'Too many subscribers in batch (maximum 1000).',
  210: 'Import had failures; see ResultData.',
  211: 'New email address invalid.',
  212: 'No subscribers in batch.',
  214: 'Consent to track value missing.',
  215: 'Consent to track value invalid.',
} as const;

type ConsentValue = 'Yes' | 'No' | 'Unchanged';

/** The code refusing an inactive or suppressed address when Resubscribe is false (spec codes 204-208). */
function blockedCode(state: SubscriberState | undefined, suppressed: boolean): 204 | 205 | 206 | 207 | 208 | undefined {
  if (suppressed) return 204;
  switch (state) {
    case 'Deleted':
      return 205;
    case 'Unsubscribed':
      return 206;
    case 'Bounced':
      return 207;
    case 'Unconfirmed':
      return 208;
    default:
      return undefined;
  }
}

const INACTIVE: ReadonlySet<SubscriberState> = new Set(['Unsubscribed', 'Bounced', 'Deleted']);

// ---- request checks -----------------------------------------------------------

/** A required string field (service-spec.md "Subscriber": Name is required): missing, null or another type is a generic 400. */
function requiredString(body: Record<string, unknown>, field: string, where = ''): string {
  const value = body[field];
  if (typeof value !== 'string') throw new RouteError(badRequest(`${where}${field} is required and must be a string (got ${jsonKind(value)}).`));
  return value;
}

/** A required boolean field (service-spec.md "Subscriber" and "Import request": Resubscribe, QueueSubscriptionBasedAutoResponders). */
function requiredBoolean(body: Record<string, unknown>, field: string): boolean {
  const value = body[field];
  if (typeof value !== 'boolean') throw new RouteError(badRequest(`${field} is required and must be true or false (got ${jsonKind(value)}).`));
  return value;
}

/** A boolean the service defaults to false when omitted (RestartSubscriptionBasedAutoresponders: "Default false when omitted"). */
function optionalBoolean(body: Record<string, unknown>, field: string): boolean {
  const value = body[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new RouteError(badRequest(`${field} must be true or false (got ${jsonKind(value)}).`));
  return value;
}

/** service-spec.md "Subscriber": missing ConsentToTrack gives 214, an invalid value 215; import entries may say Unchanged. */
function consentProblem(value: unknown, allowUnchanged: boolean): 214 | 215 | undefined {
  if (value === undefined || value === null || value === '') return 214;
  if (value === 'Yes' || value === 'No') return undefined;
  if (allowUnchanged && value === 'Unchanged') return undefined;
  return 215;
}

function requireCustomFields(raw: unknown): CustomFieldItem[] {
  const check = checkCustomFieldItems(raw);
  if (!check.ok) throw new RouteError(badRequest(check.message));
  return check.items;
}

// ---- the moves of a subscriber ----------------------------------------------------

interface Submission {
  email: string;
  name: string;
  items: CustomFieldItem[];
  consent: ConsentValue;
  resubscribe: boolean;
}

type AddOutcome = { kind: 'new'; subscriber: Subscriber } | { kind: 'existing'; subscriber: Subscriber } | { kind: 'blocked'; code: 204 | 205 | 206 | 207 | 208 };

/** What one add or import request shares across its entries. */
interface BatchContext {
  ctx: SandboxContext;
  list: SubscriberList;
  fields: FieldIndex;
  allowClear: boolean;
  at: Date;
  iso: string;
  /** False when no webhook listens on the list: events are not built at all. */
  events: boolean;
}

function batchContext(ctx: SandboxContext, list: SubscriberList, allowClear: boolean): BatchContext {
  const at = ctx.now();
  return { ctx, list, fields: new FieldIndex(list.CustomFields), allowClear, at, iso: at.toISOString(), events: ctx.wantsEvents(list.ListID) };
}

/**
 * Add (or import) one address, following service-spec.md "States and
 * transitions": a new address joins the list (Unconfirmed on a confirmed
 * opt-in list until the verification link is clicked); an existing one has
 * its name and custom fields updated; an inactive, unsubscribed or suppressed
 * one is re-added only when Resubscribe is true, else refused with 204-208.
 * Fires Subscribe for new and re-activated subscribers, Update for existing
 * active ones (spec "Events").
 */
function addOne(b: BatchContext, s: Submission): AddOutcome {
  const { ctx, list, fields, allowClear, at, iso } = b;
  const key = s.email.toLowerCase();
  const existing = Object.hasOwn(list.Subscribers, key) ? list.Subscribers[key] : undefined;
  const suppressed = Object.hasOwn(ctx.state.suppression, key);
  const blocked = existing?.State === 'Active' && !suppressed ? undefined : blockedCode(existing?.State, suppressed);
  if (blocked !== undefined && !s.resubscribe) return { kind: 'blocked', code: blocked };
  if (suppressed) delete ctx.state.suppression[key];

  if (!existing) {
    const subscriber: Subscriber = {
      EmailAddress: s.email,
      Name: s.name,
      State: list.ConfirmedOptIn ? 'Unconfirmed' : 'Active',
      CustomFields: applyCustomFieldItems({}, s.items, fields, allowClear),
      ConsentToTrack: s.consent === 'Yes' ? 'Yes' : 'No',
      DateAdded: iso,
      DateStateChanged: iso,
      History: [],
    };
    list.Subscribers[key] = subscriber;
    if (b.events && subscriber.State === 'Active') ctx.emitEvent(list.ListID, subscribeEvent(subscriber, at));
    return { kind: 'new', subscriber };
  }

  const oldAddress = existing.EmailAddress;
  const wasInactive = INACTIVE.has(existing.State);
  existing.EmailAddress = s.email;
  existing.Name = s.name;
  existing.CustomFields = applyCustomFieldItems(existing.CustomFields, s.items, fields, allowClear);
  if (s.consent !== 'Unchanged') existing.ConsentToTrack = s.consent;
  if (wasInactive) {
    existing.State = 'Active';
    existing.DateStateChanged = iso;
    if (b.events) ctx.emitEvent(list.ListID, subscribeEvent(existing, at));
  } else if (b.events && existing.State === 'Active') {
    ctx.emitEvent(list.ListID, updateEvent(existing, oldAddress, at));
  }
  // An Unconfirmed subscriber stays Unconfirmed: the verification email is sent again.
  return { kind: 'existing', subscriber: existing };
}

// ---- handlers ---------------------------------------------------------------

const addSubscriber: RouteDef = {
  method: 'POST',
  pattern: '/email/subscribers/:listId',
  handler(req, ctx) {
    const list = requireList(ctx, req.params.listId);
    const body = requireBodyObject(req.body, 'the subscriber');
    if (typeof body.EmailAddress !== 'string' || !isServiceAddress(body.EmailAddress)) return coded(1, MESSAGES[1]);
    // service-spec.md "Subscriber": Name, CustomFields and Resubscribe are
    // required ("Resubscribe is false" is a state of its own in "States and
    // transitions"); RestartSubscriptionBasedAutoresponders defaults to false.
    const name = requiredString(body, 'Name');
    const resubscribe = requiredBoolean(body, 'Resubscribe');
    optionalBoolean(body, 'RestartSubscriptionBasedAutoresponders');
    const consentCode = consentProblem(body.ConsentToTrack, false);
    if (consentCode) return coded(consentCode, MESSAGES[consentCode]);
    const items = requireCustomFields(body.CustomFields);

    const submission: Submission = {
      email: body.EmailAddress.trim(),
      name,
      items,
      consent: body.ConsentToTrack as ConsentValue,
      resubscribe,
    };
    const outcome = ctx.store.mutate(() => addOne(batchContext(ctx, list, false), submission));
    if (outcome.kind === 'blocked') return coded(outcome.code, MESSAGES[outcome.code]);
    // 201: a JSON string identifying the subscriber (its address).
    return created(outcome.subscriber.EmailAddress);
  },
};

const updateSubscriber: RouteDef = {
  method: 'PUT',
  pattern: '/email/subscribers/:listId',
  handler(req, ctx) {
    const list = requireList(ctx, req.params.listId);
    const current = req.query.email;
    if (current === undefined || !isServiceAddress(current)) return coded(1, MESSAGES[1]);
    const body = requireBodyObject(req.body, 'the subscriber');
    if (typeof body.EmailAddress !== 'string' || !isServiceAddress(body.EmailAddress)) return coded(211, MESSAGES[211]);
    // The body is the subscriber (Name and CustomFields required). Resubscribe
    // may be left out here: "States and transitions" reads "Resubscribe not
    // true" for update, where add reads "Resubscribe is false".
    const name = requiredString(body, 'Name');
    const resubscribe = optionalBoolean(body, 'Resubscribe');
    optionalBoolean(body, 'RestartSubscriptionBasedAutoresponders');
    const consentCode = consentProblem(body.ConsentToTrack, false);
    if (consentCode) return coded(consentCode, MESSAGES[consentCode]);
    const items = requireCustomFields(body.CustomFields);

    const oldKey = current.trim().toLowerCase();
    // "A missing subscriber is not created."
    const subscriber = Object.hasOwn(list.Subscribers, oldKey) ? list.Subscribers[oldKey] : undefined;
    if (!subscriber) return coded(203, MESSAGES[203]);
    const newAddress = body.EmailAddress.trim();
    const newKey = newAddress.toLowerCase();
    if (newKey !== oldKey && Object.hasOwn(list.Subscribers, newKey)) return coded(201, MESSAGES[201]);

    const at = ctx.now();
    ctx.store.mutate((state) => {
      const oldAddress = subscriber.EmailAddress;
      if (newKey !== oldKey) {
        delete list.Subscribers[oldKey];
        list.Subscribers[newKey] = subscriber;
      }
      subscriber.EmailAddress = newAddress;
      subscriber.Name = name;
      subscriber.CustomFields = applyCustomFieldItems(subscriber.CustomFields, items, new FieldIndex(list.CustomFields), true);
      subscriber.ConsentToTrack = body.ConsentToTrack as 'Yes' | 'No';
      // "Applies to active and inactive subscribers and fires Update webhooks in both cases."
      let reactivated = false;
      const suppressed = Object.hasOwn(state.suppression, oldKey) || Object.hasOwn(state.suppression, newKey);
      if (resubscribe && (INACTIVE.has(subscriber.State) || suppressed)) {
        // Resubscribe true on an inactive subscriber: re-added, as by add.
        delete state.suppression[oldKey];
        delete state.suppression[newKey];
        if (INACTIVE.has(subscriber.State)) {
          subscriber.State = 'Active';
          subscriber.DateStateChanged = at.toISOString();
          reactivated = true;
        }
      }
      ctx.emitEvent(list.ListID, updateEvent(subscriber, oldAddress, at));
      // Moved from inactive to Active: the Subscribe event of spec "Events".
      if (reactivated) ctx.emitEvent(list.ListID, subscribeEvent(subscriber, at));
    });
    // "200 with no body shown."
    return ok();
  },
};

interface ImportResult {
  TotalUniqueEmailsSubmitted: number;
  TotalExistingSubscribers: number;
  TotalNewSubscribers: number;
  DuplicateEmailsInSubmission: string[];
  FailureDetails: { EmailAddress: string; Code: number; Message: string }[];
}

const importSubscribers: RouteDef = {
  method: 'POST',
  pattern: '/email/subscribers/:listId/import',
  handler(req, ctx) {
    const list = requireList(ctx, req.params.listId);
    const body = requireBodyObject(req.body, 'the import request');
    const entries = body.Subscribers;
    if (entries === undefined || entries === null) return coded(212, MESSAGES[212]);
    if (!Array.isArray(entries)) return badRequest('Subscribers must be an array of subscriber entries.');
    if (entries.length === 0) return coded(212, MESSAGES[212]);
    if (entries.length > IMPORT_BATCH_LIMIT) return coded(209, MESSAGES[209]);
    // service-spec.md "Import request": Resubscribe and
    // QueueSubscriptionBasedAutoResponders are required booleans;
    // RestartSubscriptionBasedAutoresponders is "as above" (default false).
    const resubscribe = requiredBoolean(body, 'Resubscribe');
    requiredBoolean(body, 'QueueSubscriptionBasedAutoResponders');
    optionalBoolean(body, 'RestartSubscriptionBasedAutoresponders');

    // Shape and consent are checked for the whole batch before anything is
    // written: a request that fails them changes nothing (codes 214, 215).
    const parsed: { email: string | undefined; name: string; items: CustomFieldItem[] | string; consent: ConsentValue }[] = [];
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as Record<string, unknown> | null;
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
        return badRequest(`Subscribers[${i}] must be an object.`);
      }
      const consentCode = consentProblem(entry.ConsentToTrack, true);
      if (consentCode) {
        return coded(consentCode, `${MESSAGES[consentCode]} (Subscribers[${i}]${typeof entry.EmailAddress === 'string' ? `, ${entry.EmailAddress}` : ''})`);
      }
      // Entries carry the subscriber's fields "as above": Name and CustomFields are required.
      const name = requiredString(entry, 'Name', `Subscribers[${i}].`);
      const check = checkCustomFieldItems(entry.CustomFields);
      if (!check.ok && !check.tooLong) return badRequest(`Subscribers[${i}]: ${check.message}`);
      parsed.push({
        // An entry without a string address fails with code 1 on its own (below).
        email: typeof entry.EmailAddress === 'string' ? entry.EmailAddress.trim() : undefined,
        name,
        items: check.ok ? check.items : check.message,
        consent: entry.ConsentToTrack as ConsentValue,
      });
    }

    const result: ImportResult = {
      TotalUniqueEmailsSubmitted: 0,
      TotalExistingSubscribers: 0,
      TotalNewSubscribers: 0,
      DuplicateEmailsInSubmission: [],
      FailureDetails: [],
    };
    // Lower-cased address → the address as first submitted.
    const seen = new Map<string, string>();
    const duplicates = new Set<string>();
    const batch = batchContext(ctx, list, true);
    let missingAddresses = 0;
    ctx.store.mutate(() => {
      for (const entry of parsed) {
        if (entry.email === undefined) {
          // No address: a failure of its own, never a duplicate of another entry without one.
          result.FailureDetails.push({ EmailAddress: '', Code: 1, Message: MESSAGES[1] });
          missingAddresses++;
          continue;
        }
        const key = entry.email.toLowerCase();
        // The first occurrence of an address is imported; later ones are reported as duplicates.
        if (seen.has(key)) {
          if (!duplicates.has(key)) {
            duplicates.add(key);
            result.DuplicateEmailsInSubmission.push(seen.get(key)!);
          }
          continue;
        }
        seen.set(key, entry.email);
        if (!isServiceAddress(entry.email)) {
          result.FailureDetails.push({ EmailAddress: entry.email, Code: 1, Message: MESSAGES[1] });
          continue;
        }
        if (typeof entry.items === 'string') {
          result.FailureDetails.push({ EmailAddress: entry.email, Code: VALUE_TOO_LONG_CODE, Message: entry.items });
          continue;
        }
        const outcome = addOne(batch, { email: entry.email, name: entry.name, items: entry.items, consent: entry.consent, resubscribe });
        if (outcome.kind === 'blocked') {
          result.FailureDetails.push({ EmailAddress: entry.email, Code: outcome.code, Message: MESSAGES[outcome.code] });
        } else if (outcome.kind === 'new') {
          result.TotalNewSubscribers++;
        } else {
          result.TotalExistingSubscribers++;
        }
      }
    });
    // Each entry without an address counts as one submission, so the total still equals new + existing + failures.
    result.TotalUniqueEmailsSubmitted = seen.size + missingAddresses;
    // All-or-report: entries that could be imported were; any failure turns the answer into 210 with the result.
    if (result.FailureDetails.length > 0) return coded(210, MESSAGES[210], result);
    return ok(result);
  },
};

function historyElement(entry: Subscriber['History'][number]) {
  return {
    ID: entry.ID,
    Type: entry.Type,
    Name: entry.Name,
    Actions: entry.Actions.map((a) => ({ Event: a.Event, Date: serviceDateTime(a.Date), IPAddress: a.IPAddress, Detail: a.Detail })),
  };
}

const subscriberHistory: RouteDef = {
  method: 'GET',
  pattern: '/email/subscribers/:listId/history',
  handler(req, ctx) {
    const list = requireList(ctx, req.params.listId);
    const email = req.query.email;
    if (email === undefined || !isServiceAddress(email)) return coded(1, MESSAGES[1]);
    const key = email.trim().toLowerCase();
    const subscriber = Object.hasOwn(list.Subscribers, key) ? list.Subscribers[key] : undefined;
    if (!subscriber) return coded(203, MESSAGES[203]);
    return ok(subscriber.History.map(historyElement));
  },
};

const listsForEmail: RouteDef = {
  method: 'GET',
  pattern: '/email/clients/listsforemail',
  handler(req, ctx) {
    const email = req.query.email;
    if (email === undefined || !isServiceAddress(email)) return coded(1, MESSAGES[1]);
    const key = email.trim().toLowerCase();
    // Lists are few (seeded); each look-up is O(1).
    const answer = [];
    for (const list of Object.values(ctx.state.lists)) {
      const subscriber = Object.hasOwn(list.Subscribers, key) ? list.Subscribers[key] : undefined;
      if (!subscriber) continue;
      answer.push({
        ListID: list.ListID,
        ListName: list.Name,
        SubscriberState: subscriber.State,
        DateSubscriberAdded: serviceDateTime(subscriber.DateAdded),
      });
    }
    return ok(answer);
  },
};

export const routes: RouteDef[] = [addSubscriber, updateSubscriber, importSubscribers, subscriberHistory, listsForEmail];
