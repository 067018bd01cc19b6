// service-spec.md "Subscribers". Add, update and import are safe to repeat (an existing
// subscriber is updated, not duplicated), so the core retries them (CLI.md "retries").
import type { ApiClient, RawResponse } from '../core/http.js';
import { addSubscriberResponse, listsForEmail, subscriberHistory } from '../schemas/subscribers.js';
import type { Consent, CustomFieldValue } from '../validation/subscriber-fields.js';

export interface SubscriberBody {
  EmailAddress: string;
  Name: string;
  CustomFields: CustomFieldValue[];
  ConsentToTrack: Exclude<Consent, 'Unchanged'>;
  Resubscribe: boolean;
  RestartSubscriptionBasedAutoresponders: boolean;
}

/** Sent with every batch. */
export interface ImportFlags {
  Resubscribe: boolean;
  QueueSubscriptionBasedAutoResponders: boolean;
  RestartSubscriptionBasedAutoresponders: boolean;
}

const listPath = (listId: string) => `/email/subscribers/${encodeURIComponent(listId)}`;

export function addSubscriber(client: ApiClient, listId: string, body: SubscriberBody): Promise<unknown> {
  return client.request({ method: 'POST', path: listPath(listId), body, schema: addSubscriberResponse, idempotent: true });
}

export function updateSubscriber(client: ApiClient, listId: string, currentEmail: string, body: SubscriberBody): Promise<RawResponse> {
  return client.send({ method: 'PUT', path: listPath(listId), query: { email: currentEmail }, body, idempotent: true });
}

export function importPath(listId: string): string {
  return `${listPath(listId)}/import`;
}

/** The body is already UTF-8. A 400 code 210 is thrown too; its ResultData carries the import result. */
export function importBatch(
  client: ApiClient,
  listId: string,
  rawBody: Uint8Array,
  options: { timeoutMs: number; signal?: AbortSignal; onRetry?: (reason: string, delayMs: number) => void },
): Promise<RawResponse> {
  return client.send({
    method: 'POST',
    path: importPath(listId),
    rawBody,
    idempotent: true,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onRetry: options.onRetry,
  });
}

export function getSubscriberHistory(client: ApiClient, listId: string, email: string) {
  return client.request({ method: 'GET', path: `${listPath(listId)}/history`, query: { email }, schema: subscriberHistory, idempotent: true });
}

export function getListsForEmail(client: ApiClient, email: string) {
  return client.request({ method: 'GET', path: '/email/clients/listsforemail', query: { email }, schema: listsForEmail, idempotent: true });
}
