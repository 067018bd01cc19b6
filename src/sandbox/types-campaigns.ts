// Shapes of the campaign side of the sandbox state, plain JSON like the rest of State. Fields named
// like the service's carry its meaning; the others are bookkeeping, never sent as they are.

/** service-spec.md "Segment": RuleGroups element. */
interface RuleDefinition {
  RuleType: string;
  Clause: string;
}

export interface RuleGroupDefinition {
  Rules: RuleDefinition[];
}

/**
 * The engagement segments the service provides by default (service-spec.md
 * "Segment" rule 4). Their membership is not expressed by rules: see
 * segment-rules.ts `isEngaged`.
 */
type EngagementKind = 'Engaged' | 'Unengaged';

export interface SandboxSegment {
  SegmentID: string;
  ListID: string;
  Title: string;
  RuleGroups: RuleGroupDefinition[];
  /** Set on the system engagement segments; null on segments created through the API. */
  System: EngagementKind | null;
  /** ISO instant. */
  CreatedAt: string;
}

/** Campaign state names: service-spec.md "States and transitions" names draft, scheduled, sent. */
type CampaignStatus = 'Draft' | 'Scheduled' | 'Sent';

/**
 * Ratios of a sent campaign's summary counters to its recipients. Counters are
 * derived from them at read time so they stay consistent with the number of
 * unsubscribe records, which depends on the `unsubscribesPerCampaign` option.
 */
export interface SummaryRatios {
  UniqueOpened: number;
  /** Opens per recipient (several opens per person count). */
  TotalOpened: number;
  Clicks: number;
  Bounced: number;
  SpamComplaints: number;
  Forwards: number;
  Likes: number;
  Mentions: number;
}

export interface SandboxCampaign {
  CampaignID: string;
  Name: string;
  Status: CampaignStatus;
  Subject: string;
  FromName: string;
  FromEmail: string;
  ReplyTo: string;
  /** Empty for a draft without content (a preview then gives 376). */
  HtmlUrl: string;
  TextUrl: string | null;
  ListIDs: string[];
  SegmentIDs: string[];
  /** ISO instant. */
  DateCreated: string;
  /** ISO instant; set while Scheduled. */
  DateScheduled: string | null;
  /** A time zone label (service-spec.md "Scheduled campaign"); set while Scheduled. */
  ScheduledTimeZone: string | null;
  /** ISO instant; set once Sent. */
  SentDate: string | null;
  /** Recipients of a sent campaign before unsubscribe-driven scaling (see campaigns route). */
  Recipients: number;
  /** Set once Sent. */
  Ratios: SummaryRatios | null;
  /**
   * Unsubscribe records of a sent campaign are generated from (CampaignID,
   * Seed) and the `unsubscribesPerCampaign` option × Share, never stored one by
   * one: 100,000 records would bloat the state file.
   */
  Unsubscribes: { Seed: number; Share: number } | null;
}

export interface SandboxTemplate {
  TemplateID: string;
  Name: string;
  HtmlPageURL: string;
  ZipFileURL: string;
  /** ISO instant. */
  DateCreated: string;
}

/** service-spec.md "Smart email details". Status values seen: Active; the sandbox also uses Draft (the list filter names it). */
export interface SandboxSmartEmail {
  ID: string;
  Name: string;
  Status: 'Active' | 'Draft';
  /** ISO instant. */
  CreatedAt: string;
  From: string;
  ReplyTo: string;
  Subject: string;
  Html: string;
  Text: string;
  EmailVariables: string[];
  InlineCss: boolean;
  AddRecipientsToList: string;
}

/**
 * One day of transactional sends, either of a classic email group or of one
 * smart email (never both): the statistics endpoint sums them.
 */
export interface SandboxSendRecord {
  /** YYYY-MM-DD, in the client's time zone (UTC in the sandbox). */
  Date: string;
  Group: string | null;
  SmartEmailID: string | null;
  Sent: number;
  Bounces: number;
  Delivered: number;
  Opened: number;
  Clicked: number;
}

/** One accepted preview send (service-spec.md "Limits": 240 addresses per 1440 minutes). */
export interface PreviewLogEntry {
  /** ISO instant. */
  At: string;
  CampaignID: string;
  Recipients: number;
}

/**
 * Account-level settings of the campaign side. The service's values are "not
 * shown" (service-spec.md "Limits"); these are the sandbox's, and tests lower
 * them through `sandbox.state().campaignAccount` to reach the limits cheaply.
 */
export interface CampaignAccountSettings {
  /** API segment limit per account (code 283). */
  segmentLimit: number;
  /** Test campaigns (previews) available per customer (code 333). */
  testCampaignAllowance: number;
  testCampaignsUsed: number;
  /** false → transactional endpoints answer 993 (service-spec.md "Authentication" rule 4). */
  customSendingAuthentication: boolean;
  /** false → transactional endpoints answer 994. */
  sendingDomainMatches: boolean;
}
