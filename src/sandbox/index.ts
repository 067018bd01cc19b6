// Public entry of the sandbox: startSandbox() for tests, the `email sandbox`
// command and the demo. Starts an HTTP server on loopback (port 0 = a free
// port) serving service-spec.md from an in-memory state, optionally persisted
// to a file (--state).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultQueue, RateLimiter, seededRandom, type FaultSpec, type RateLimitOptions } from './faults.js';
import { canonicalId } from './identifiers.js';
import { Router, type ResolvedSandboxOptions, type RouteDef, type SandboxContext } from './router.js';
import { routes as campaignReportRoutes } from './routes/campaign-reports.js';
import { routes as campaignUnsubscribeRoutes } from './routes/campaign-unsubscribes.js';
import { routes as campaignRoutes } from './routes/campaigns.js';
import { routes as customFieldRoutes } from './routes/custom-fields.js';
import { routes as segmentRoutes } from './routes/segments.js';
import { routes as subscriberRoutes } from './routes/subscribers.js';
import { routes as templateRoutes } from './routes/templates.js';
import { routes as transactionalRoutes } from './routes/transactional.js';
import { emptyState, seedState } from './seed.js';
import { answerClientError, createRequestListener, RequestLog, type RecordedRequest } from './server.js';
import { readStateFile, StateFileError, Store } from './store.js';
import { setSubscriberState, confirmSubscriber } from './subscriber-transitions.js';
import type { State, SubscriberState, WebhookEvent, WebhookFormat, WebhookRegistration } from './types.js';
import { UnsubscribeIndexes } from './unsubscribe-index.js';
import { DEFAULT_WEBHOOK_INTERVAL_MS, DEFAULT_WEBHOOK_TOLERANCE_MS, WebhookDispatcher } from './webhooks.js';

export type { RecordedRequest } from './server.js';
export type { FaultSpec } from './faults.js';
export type { State } from './types.js';
export { SEED_LIST_IDS, SEED_SENT_CAMPAIGN } from './seed-ids.js';
export { StateFileError } from './store.js';
// For the tests that kill a process in the middle of writing a large state
// (test/sandbox/store.test.ts), run from the built dist/sandbox.cjs.
export { writeStateFile } from './store.js';

export const DEFAULT_API_KEY = 'sandbox-key';
const DEFAULT_HOST = '127.0.0.1';
/** Bodies above this are refused with 413. The largest legitimate body, a 1,000-entry import with 250-character values, stays far below. */
const DEFAULT_BODY_LIMIT_BYTES = 16 * 1024 * 1024;
const DEFAULT_UNSUBSCRIBES_PER_CAMPAIGN = 2_500;
const RECORDED_REQUESTS_LIMIT = 10_000;
const STOP_GRACE_MS = 1_000;

export interface SandboxWebhookOption {
  listId: string;
  url: string;
  format: WebhookFormat;
}

export interface SandboxOptions {
  /** Default 0 (a free port) for tests; the CLI passes its own default. */
  port?: number;
  host?: string;
  apiKey?: string;
  statePath?: string;
  latencyMs?: number;
  /** Share (0..1) of requests answered 500. */
  failRate?: number;
  /** Seed of the --fail-rate choice, so runs are repeatable (default 1). */
  failSeed?: number;
  rateLimitPerSecond?: number;
  /** How --rate-limit counts and speaks (tests and benches): a token bucket, headers only on the 429 (src/sandbox/faults.ts). */
  rateLimit?: Omit<RateLimitOptions, 'perSecond'>;
  webhooks?: SandboxWebhookOption[];
  /** Default 10,000 (service-spec.md "Events" rule 3). */
  webhookIntervalMs?: number;
  /** Default one week (service-spec.md "Events" rule 4). */
  webhookToleranceMs?: number;
  unsubscribesPerCampaign?: number;
  bodyLimitBytes?: number;
  /** Record requests for `RunningSandbox.requests` (default true). */
  recordRequests?: boolean;
  now?: () => Date;
  /** Where unexpected internal errors are reported (default: stderr). */
  onInternalError?: (error: unknown, method: string, path: string) => void;
}

export interface SandboxSeedSummary {
  lists: { ListID: string; Name: string }[];
  campaigns: { CampaignID: string; Name: string; Status: string }[];
  segments: { SegmentID: string; ListID: string; Title: string }[];
  smartEmails: { ID: string; Name: string; Status: string }[];
}

export interface RunningSandbox {
  /** Base URL, e.g. http://127.0.0.1:PORT (paths start with /email). */
  url: string;
  apiKey: string;
  seed: SandboxSeedSummary;
  /** The most recent requests, bounded in number and in body bytes, oldest first. */
  requests: RecordedRequest[];
  requestCount(): number;
  clearRequests(): void;
  failNext(fault: FaultSpec): void;
  state(): State;
  suspendAccount(on: boolean): void;
  /** Moves a subscriber to an inactive state as the service would (unsubscribe link, bounce, deletion), firing Deactivate. */
  unsubscribe(listId: string, email: string): void;
  setSubscriberState(listId: string, email: string, state: SubscriberState): void;
  /** Simulates the click on the verification link of a confirmed opt-in list: Unconfirmed → Active, firing Subscribe. */
  confirmSubscriber(listId: string, email: string): void;
  /** Webhook registrations, with their pending events and delivery counters. */
  webhooks(): WebhookRegistration[];
  /** Writes the state file now (no-op without statePath). */
  flush(): void;
  stop(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const now = opts.now ?? (() => new Date());
  const options: ResolvedSandboxOptions = {
    apiKey: opts.apiKey ?? DEFAULT_API_KEY,
    latencyMs: opts.latencyMs ?? 0,
    failRate: opts.failRate ?? 0,
    rateLimitPerSecond: opts.rateLimitPerSecond ?? 0,
    webhookIntervalMs: opts.webhookIntervalMs ?? DEFAULT_WEBHOOK_INTERVAL_MS,
    webhookToleranceMs: opts.webhookToleranceMs ?? DEFAULT_WEBHOOK_TOLERANCE_MS,
    unsubscribesPerCampaign: opts.unsubscribesPerCampaign ?? DEFAULT_UNSUBSCRIBES_PER_CAMPAIGN,
    bodyLimitBytes: opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
  };

  const loaded = opts.statePath ? readStateFile(opts.statePath) : undefined;
  const state = loaded ? withDefaults(loaded) : seedState(now());
  const store = new Store(state, opts.statePath);
  if (!loaded && opts.statePath) {
    // Write the seeded state at once, so an unwritable --state path fails the start, not a later request.
    store.mutate();
    try {
      store.flush();
    } catch (error) {
      throw new StateFileError(`cannot write state file ${opts.statePath}: ${(error as Error).message}`);
    }
  }

  const dispatcher = new WebhookDispatcher(store, {
    intervalMs: options.webhookIntervalMs,
    toleranceMs: options.webhookToleranceMs,
    now,
  });
  for (const w of opts.webhooks ?? []) dispatcher.register(canonicalId(w.listId), w.url, w.format);
  dispatcher.resume();

  const ctx: SandboxContext = {
    store,
    get state() {
      return store.state;
    },
    now,
    emitEvent: (listId: string, event: WebhookEvent) => dispatcher.emit(listId, event),
    wantsEvents: (listId: string) => dispatcher.wantsEvents(listId),
    options,
    unsubscribeIndexes: new UnsubscribeIndexes(),
  };

  const allRoutes: RouteDef[] = [
    ...subscriberRoutes,
    ...customFieldRoutes,
    ...segmentRoutes,
    ...campaignRoutes,
    ...campaignUnsubscribeRoutes,
    ...campaignReportRoutes,
    ...templateRoutes,
    ...transactionalRoutes,
  ];
  const log = new RequestLog(RECORDED_REQUESTS_LIMIT);
  const faults = new FaultQueue();
  const listener = createRequestListener({
    router: new Router(allRoutes),
    ctx,
    log,
    faults,
    random: seededRandom(opts.failSeed ?? 1),
    record: opts.recordRequests ?? true,
    rateLimiter: options.rateLimitPerSecond > 0 ? new RateLimiter({ perSecond: options.rateLimitPerSecond, ...opts.rateLimit }) : undefined,
    reportError:
      opts.onInternalError ??
      ((error, method, path) => process.stderr.write(`sandbox: internal error on ${method} ${path}: ${(error as Error)?.stack ?? String(error)}\n`)),
  });

  const server = createServer(listener);
  server.on('clientError', answerClientError);
  // Idle keep-alive sockets must not hold stop() open.
  server.keepAliveTimeout = 5_000;
  const host = opts.host ?? DEFAULT_HOST;
  await listen(server, opts.port ?? 0, host);
  const address = server.address() as AddressInfo;
  const url = `http://${formatHost(host)}:${address.port}`;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests still in progress get a moment to finish; then their connections are cut.
        setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS).unref();
      });
      await dispatcher.stop();
      store.close();
    })());

  const sandbox: RunningSandbox = {
    url,
    apiKey: options.apiKey,
    seed: seedSummary(store.state),
    get requests() {
      return log.list;
    },
    requestCount: () => log.count,
    clearRequests: () => log.clear(),
    failNext: (fault) => faults.add(fault),
    state: () => store.state,
    suspendAccount: (on) => store.mutate((s) => (s.accountSuspended = on)),
    unsubscribe: (listId, email) => setSubscriberState(ctx, canonicalId(listId), email, 'Unsubscribed'),
    setSubscriberState: (listId, email, to) => setSubscriberState(ctx, canonicalId(listId), email, to),
    confirmSubscriber: (listId, email) => confirmSubscriber(ctx, canonicalId(listId), email),
    webhooks: () => store.state.webhooks,
    flush: () => store.flush(),
    stop,
  };
  return sandbox;
}

function seedSummary(state: State): SandboxSeedSummary {
  return {
    lists: Object.values(state.lists).map(({ ListID, Name }) => ({ ListID, Name })),
    campaigns: Object.values(state.campaigns).map(({ CampaignID, Name, Status }) => ({ CampaignID, Name, Status })),
    segments: Object.values(state.segments).map(({ SegmentID, ListID, Title }) => ({ SegmentID, ListID, Title })),
    smartEmails: Object.values(state.smartEmails).map(({ ID, Name, Status }) => ({ ID, Name, Status })),
  };
}

/** Fills parts of the state a file written by an older build may lack. */
function withDefaults(loaded: State): State {
  return { ...emptyState(), ...loaded };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
