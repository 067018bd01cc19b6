// The service's enumerations and the codes of their refusals (service-spec.md),
// in one module that imports nothing: the command definitions declare their
// choices from it (help and completion read them without loading any
// validation code), and src/validation checks against the same lists.

/** "Campaign unsubscribers": orderfield (802) and orderdirection (803). */
export const ORDER_FIELDS = ['email', 'name', 'date'] as const;
export const ORDER_DIRECTIONS = ['asc', 'desc'] as const;
export type OrderField = (typeof ORDER_FIELDS)[number];
export type OrderDirection = (typeof ORDER_DIRECTIONS)[number];

/** "List smart emails": status, else 932. */
export const SMART_EMAIL_STATUSES = ['all', 'active', 'draft'] as const;
export type SmartEmailStatus = (typeof SMART_EMAIL_STATUSES)[number];
export const INVALID_STATUS = 932;

/** "Email statistics": timezone, else 923; a smart email id that is not a GUID, 925. */
export const STATS_TIME_ZONES = ['utc', 'client'] as const;
export type StatsTimeZone = (typeof STATS_TIME_ZONES)[number];
export const INVALID_TIME_ZONE = 923;
export const INVALID_SMART_EMAIL_ID = 925;

/** "Custom field definition": DataType, any other value gives 259. */
export const DATA_TYPES = ['Text', 'Number', 'MultiSelectOne', 'MultiSelectMany', 'Date', 'Country', 'USState'] as const;
export type DataType = (typeof DATA_TYPES)[number];
export const INVALID_DATA_TYPE = 259;

/** "Send campaign preview": invalid recipient addresses, listed in ResultData. */
export const INVALID_PREVIEW_RECIPIENTS = 371;
