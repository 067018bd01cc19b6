// The service's paged envelope (service-spec.md "Paged result envelope"): its records are `Results`.

export function isPagedEnvelope(data: unknown): data is { Results: unknown[] } & Record<string, unknown> {
  return data !== null && typeof data === 'object' && !Array.isArray(data) && Array.isArray((data as { Results?: unknown }).Results) && 'PageNumber' in data;
}
