// Codes of service-spec.md "Coded errors by area" → Segments that the segment commands check or explain.

/** "273 title empty" (create, update). */
export const TITLE_EMPTY = 273;

/** The help of a --group option (CLI.md "segments"). */
export const RULE_GROUP_HELP = 'a rule group: rules joined by " OR ", each "RuleType Clause"; repeat to AND groups';
