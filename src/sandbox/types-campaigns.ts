// Shapes of the campaign side of the sandbox state (segments, campaigns,
// templates, smart emails, statistics). Minimal placeholders: the fields named
// here are relied on by the seed summary (RunningSandbox.seed) and must stay.

export interface SandboxSegment {
  SegmentID: string;
  ListID: string;
  Title: string;
  [extra: string]: unknown;
}

export interface SandboxCampaign {
  CampaignID: string;
  Name: string;
  Status: string;
  [extra: string]: unknown;
}

export interface SandboxTemplate {
  TemplateID: string;
  Name: string;
  [extra: string]: unknown;
}

export interface SandboxSmartEmail {
  ID: string;
  Name: string;
  Status: string;
  [extra: string]: unknown;
}

export interface SandboxSendRecord {
  [field: string]: unknown;
}

export interface PreviewLogEntry {
  [field: string]: unknown;
}
