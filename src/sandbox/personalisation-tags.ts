// Personalisation tags in a campaign's sender fields (service-spec.md "Coded
// errors by area", draft campaign creation: 322 from name contains a reserved
// tag, 323/325 an address needs a fallback, 324/326 an address contains a
// reserved tag).
//
// Tags are written `[name]` or `[name,fallback=value]`. The subscriber's own
// data (first name, last name, full name, address) is reserved: a sender
// cannot be the recipient. Other tags (custom fields) are allowed in the from
// name, and in addresses when they carry a non-empty fallback, which must
// then make the address valid.

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
