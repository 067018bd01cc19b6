// The whole state of the sandbox. It is plain JSON (records and arrays, no
// Map/Set) so it can be written to the --state file as it is and loaded back.
// Records keyed by id or by lower-cased address give O(1) look-ups, which keeps
// per-request work proportional to the request (an import of 1,000 entries
// never scans the list).
import type {
  CampaignAccountSettings,
  PreviewLogEntry,
  SandboxCampaign,
  SandboxSegment,
  SandboxSendRecord,
  SandboxSmartEmail,
  SandboxTemplate,
} from './types-campaigns.js';

export const STATE_VERSION = 1;

/** service-spec.md "Lists-for-email element": SubscriberState enum. */
export type SubscriberState = 'Active' | 'Unconfirmed' | 'Unsubscribed' | 'Bounced' | 'Deleted';

/** service-spec.md "Custom field definition": DataType enum. */
export type CustomFieldDataType =
  | 'Text'
  | 'Number'
  | 'MultiSelectOne'
  | 'MultiSelectMany'
  | 'Date'
  | 'Country'
  | 'USState';

export interface CustomFieldDefinition {
  FieldName: string;
  /** Generated from FieldName as `[FieldName]` (without spaces); requests may name it with or without the brackets. */
  Key: string;
  DataType: CustomFieldDataType;
  /** Options of MultiSelectOne/MultiSelectMany; generated for USState; empty otherwise. */
  FieldOptions: string[];
  VisibleInPreferenceCenter: boolean;
}

/** service-spec.md "Subscriber history element". */
interface HistoryAction {
  Event: string;
  /** ISO 8601 instant; formatted on output. */
  Date: string;
  IPAddress: string;
  Detail: string;
}

export interface HistoryEntry {
  ID: string;
  Type: string;
  Name: string;
  Actions: HistoryAction[];
}

export interface Subscriber {
  /** The address as last submitted (case preserved); the record is keyed by its lower-cased form. */
  EmailAddress: string;
  Name: string;
  State: SubscriberState;
  /**
   * Values by field Key (the definition's Key, e.g. `[Interests]`). Every field
   * holds an array: one element for single-valued types, any number for
   * MultiSelectMany. Date values are stored as YYYY-MM-DD.
   */
  CustomFields: Record<string, string[]>;
  ConsentToTrack: 'Yes' | 'No';
  /** ISO 8601 instant the subscriber was first added to the list. */
  DateAdded: string;
  /** ISO 8601 instant of the last state change. */
  DateStateChanged: string;
  History: HistoryEntry[];
}

export interface SubscriberList {
  ListID: string;
  Name: string;
  /** Double opt-in: new subscribers stay Unconfirmed until they click the verification link (service-spec.md "States and transitions"). */
  ConfirmedOptIn: boolean;
  CustomFields: CustomFieldDefinition[];
  /** Keyed by lower-cased EmailAddress. */
  Subscribers: Record<string, Subscriber>;
}

export type WebhookEventType = 'Subscribe' | 'Update' | 'Deactivate';

/** service-spec.md "Events" table. */
export interface WebhookEvent {
  Type: WebhookEventType;
  /** YYYY-MM-DD HH:MM:SS */
  Date: string;
  OldEmailAddress?: string;
  EmailAddress: string;
  Name: string;
  State?: SubscriberState;
  CustomFields: { Key: string; Value: string }[];
  SignupIPAddress?: string;
}

export type WebhookFormat = 'json' | 'xml';

export interface WebhookRegistration {
  WebhookID: string;
  ListID: string;
  Url: string;
  Format: WebhookFormat;
  Active: boolean;
  /** Events waiting for delivery, oldest first (kept across failed attempts and restarts). */
  Pending: WebhookEvent[];
  /** ISO instant of the first failure of the current run of failures; null while deliveries succeed. */
  FailingSince: string | null;
  /** ISO instant of the last delivery attempt (successful or not). */
  LastAttemptAt: string | null;
  DeliveredRequests: number;
  FailedRequests: number;
}

export interface State {
  version: typeof STATE_VERSION;
  /** When true every request answers 403 (service-spec.md "Authentication" rule 3). */
  accountSuspended: boolean;
  /** Account-wide suppression list: lower-cased address → ISO instant it was suppressed. */
  suppression: Record<string, string>;
  /** Keyed by ListID. Lists are seeded: the API has no call that creates one. */
  lists: Record<string, SubscriberList>;
  webhooks: WebhookRegistration[];
  // The campaign side of the service (segments, campaigns, templates,
  // transactional); shapes in types-campaigns.ts.
  segments: Record<string, SandboxSegment>;
  campaigns: Record<string, SandboxCampaign>;
  templates: Record<string, SandboxTemplate>;
  smartEmails: Record<string, SandboxSmartEmail>;
  sendRecords: SandboxSendRecord[];
  previewLog: PreviewLogEntry[];
  /** Limits and flags of the campaign side; absent in older state files, filled in by campaignAccount() in seed-campaigns.ts. */
  campaignAccount?: CampaignAccountSettings;
}
