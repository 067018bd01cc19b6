// Ids are issued dashed and lower case, and read as the real service reads its GUIDs, dashed or
// not, in any case (CLI.md "identifiers"). Requests are brought to one form where they come in.

const DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UNDASHED = /^[0-9a-f]{32}$/i;

export function isUuid(value: string): boolean {
  return DASHED.test(value) || UNDASHED.test(value);
}

/**
 * The sandbox's own form of an identifier: a UUID in either form and case
 * becomes dashed lower case; anything else is left as given, for the route
 * to refuse by name.
 */
export function canonicalId(id: string): string {
  if (!isUuid(id)) return id;
  const hex = id.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Path parameters and query parameters that carry an id: listId, campaignId, smartEmailID, … */
const ID_PARAMETER = /id$/i;
/** Body properties that carry ids, as the spec spells them: ListID, ListIDs, SegmentIDs, SmartEmailID, … */
const ID_PROPERTY = /IDs?$/;

function canonicalValue(value: unknown): unknown {
  if (typeof value === 'string') return canonicalId(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? canonicalId(v) : v));
  return value;
}

function canonicalEntries<T extends Record<string, unknown>>(record: T, carriesId: RegExp): T {
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(record)) {
    if (!carriesId.test(key)) continue;
    copy ??= { ...record };
    copy[key] = canonicalValue(value);
  }
  return (copy ?? record) as T;
}

/**
 * The ids of a request in the sandbox's own form: path parameters, query
 * parameters and top-level body properties named as ids. New objects where
 * anything changed, so the recorded request keeps what the client sent.
 */
export function canonicalRequest<P extends Record<string, string>, Q extends Record<string, string>>(params: P, query: Q, body: unknown): { params: P; query: Q; body: unknown } {
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  return {
    params: canonicalEntries(params, ID_PARAMETER),
    query: canonicalEntries(query, ID_PARAMETER),
    body: isObject ? canonicalEntries(body as Record<string, unknown>, ID_PROPERTY) : body,
  };
}
