// The service's template-language tags, which the spec names only by what its codes say; read as
// Campaign-Monitor-style markup, listed in docs/sandbox-campaigns.md.

/** Service tags other than <unsubscribe> (code 4306: the unsubscribe tag may not sit inside one). */
export const SERVICE_TAGS: ReadonlySet<string> = new Set(['singleline', 'multiline', 'repeater', 'layout', 'tableofcontents', 'webversion', 'forwardtoafriend', 'preferences']);

export const TEXT_UNSUBSCRIBE_TAG = /\[unsubscribe\]/i;
