// Codes of service-spec.md "Coded errors by area" → Subscribers that the
// subscriber commands' declarations carry (the checks themselves live in
// src/validation/subscriber-fields.ts).

/** "1 invalid email address" (the current address). */
export const EMAIL_INVALID = 1;
/** "211 invalid new email address" (update's --new-email). */
export const NEW_EMAIL_INVALID = 211;
/** "215 invalid consent value" (import's --consent). */
export const CONSENT_INVALID = 215;

export const CONSENT_HELP = 'consent to track: yes or no (required by the service)';
