// Identifiers in paths and bodies. service-spec.md "Conventions": {listId},
// {segmentId}, {campaignId}, {smartEmailID} are UUIDs. The sandbox issues
// them dashed and also knows them as the 32 hex digits the real service uses
// (CLI.md "identifiers"), in either letter case.

const DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UNDASHED = /^[0-9a-f]{32}$/i;

export function isUuid(value: string): boolean {
  return DASHED.test(value) || UNDASHED.test(value);
}

/**
 * The stored form of a path identifier: a UUID names the same resource in
 * upper or lower case, and the sandbox stores them in lower case.
 */
export function canonicalId(id: string): string {
  return id.toLowerCase();
}
