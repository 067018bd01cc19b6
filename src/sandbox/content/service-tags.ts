// The service's template-language tags. The spec names them only by what the
// codes say; the sandbox reads them as Campaign-Monitor-style markup
// (documented in docs/sandbox-campaigns.md):
//   <unsubscribe>Unsubscribe</unsubscribe>   single-click unsubscribe link
//   [unsubscribe]                            the text-style unsubscribe tag
//   <singleline>…</singleline>, <multiline>…</multiline>, <img editable width="…">
//                                            editable regions
//   <repeater>…</repeater>                   repeating section; holds <layout label="…">…</layout>
//   <singleline repeatertitle="true">        a repeater title
//   <tableofcontents>…</tableofcontents>     links to the repeater titles
//   <webversion>, <forwardtoafriend>, <preferences>
//                                            other link-type service tags

/** Service tags other than <unsubscribe> (code 4306: the unsubscribe tag may not sit inside one). */
export const SERVICE_TAGS: ReadonlySet<string> = new Set(['singleline', 'multiline', 'repeater', 'layout', 'tableofcontents', 'webversion', 'forwardtoafriend', 'preferences']);

export const TEXT_UNSUBSCRIBE_TAG = /\[unsubscribe\]/i;
