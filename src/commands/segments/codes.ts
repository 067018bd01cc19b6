// Codes of service-spec.md "Coded errors by area" → Segments that the segment commands check or explain.

/** "273 title empty" (create, update). */
export const TITLE_EMPTY = 273;
