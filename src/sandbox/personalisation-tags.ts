// Personalisation tags in a campaign's sender fields (codes 322-326): `[name]` or
// `[name,fallback=value]`. The subscriber's own data is reserved, since a sender cannot be the
// recipient; other tags need a fallback that makes an address valid.

const RESERVED_PERSONALISATION_TAGS: readonly string[] = ['firstname', 'lastname', 'fullname', 'email'];
/** Used with the g flag added per call (a shared global expression would carry lastIndex between calls). */
const PERSONALISATION_TAG = /\[([^[\],]+?)(?:,\s*fallback=([^\]]*))?\]/i;

interface TagUse {
  name: string;
  fallback: string | undefined;
}

function everyTag(): RegExp {
  return new RegExp(PERSONALISATION_TAG.source, 'gi');
}

export function tagsIn(value: string): TagUse[] {
  return [...value.matchAll(everyTag())].map((m) => ({ name: m[1].trim().toLowerCase(), fallback: m[2]?.trim() }));
}

export function isReserved(tag: TagUse): boolean {
  return RESERVED_PERSONALISATION_TAGS.includes(tag.name);
}

/** The value a sender field gives when every tag takes its fallback. */
export function withFallbacks(value: string): string {
  return value.replace(everyTag(), (_, _name: string, fallback: string | undefined) => (fallback ?? '').trim());
}
