// The small router every route module plugs into. A route module exports
// `routes: RouteDef[]`; a handler gets the parsed request and the context and
// returns (or throws, via RouteError) a SandboxResponse. Handlers never touch
// the socket: the server (server.ts) owns auth, faults, body parsing and writing.
import type { Store } from './store.js';
import type { State, WebhookEvent } from './types.js';
import type { UnsubscribeIndexes } from './unsubscribe-index.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

interface SandboxRequest {
  method: string;
  /** Path without the query string, e.g. /email/segments/abc. */
  path: string;
  /** Path parameters named in the route pattern (`:segmentId` → params.segmentId), URI-decoded. */
  params: Record<string, string>;
  /** Query parameters (first value when repeated), URI-decoded. */
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body; undefined when the request had no body. */
  body: unknown;
}

export interface SandboxResponse {
  status: number;
  /** Serialised as JSON; undefined sends an empty body (e.g. "200 with no body shown"). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Options after defaults, as route handlers see them. */
export interface ResolvedSandboxOptions {
  apiKey: string;
  latencyMs: number;
  failRate: number;
  rateLimitPerSecond: number;
  webhookIntervalMs: number;
  webhookToleranceMs: number;
  /** Unsubscribe records generated per sent campaign (paging realism; the bench raises it). */
  unsubscribesPerCampaign: number;
  bodyLimitBytes: number;
}

export interface SandboxContext {
  /** The store: `store.state` is the live state; call `store.mutate()` after changing it so it is persisted. */
  store: Store;
  /** Shortcut for store.state. */
  readonly state: State;
  now(): Date;
  /** Queues a webhook event for every active webhook registered on the list. */
  emitEvent(listId: string, event: WebhookEvent): void;
  /** True when an active webhook listens on the list (lets bulk work skip building events nobody receives). */
  wantsEvents(listId: string): boolean;
  options: ResolvedSandboxOptions;
  /** Sort orders of generated unsubscribe records, owned by this sandbox (never shared between sandboxes of one process). */
  unsubscribeIndexes: UnsubscribeIndexes;
}

type RouteHandler = (req: SandboxRequest, ctx: SandboxContext) => SandboxResponse | Promise<SandboxResponse>;

export interface RouteDef {
  method: HttpMethod;
  /** Segments starting with ':' are parameters: '/email/segments/:segmentId'. */
  pattern: string;
  handler: RouteHandler;
}

/** Thrown by handlers (or helpers they call) to answer with an error response. */
export class RouteError extends Error {
  constructor(readonly response: SandboxResponse) {
    super(typeof response.body === 'object' && response.body !== null
      ? String((response.body as { message?: unknown; Message?: unknown }).message ?? (response.body as { Message?: unknown }).Message)
      : `HTTP ${response.status}`);
    this.name = 'RouteError';
  }
}

// ---- response helpers -------------------------------------------------------

export function ok(body?: unknown): SandboxResponse {
  return { status: 200, body };
}

/** 201. Several create calls answer a bare JSON string (service-spec.md "Endpoints"). */
export function created(body?: unknown): SandboxResponse {
  return { status: 201, body };
}

/** A coded 400: {Code, Message[, ResultData]} (service-spec.md "Errors"). */
export function coded(code: number, message: string, resultData?: unknown): SandboxResponse {
  const body: Record<string, unknown> = { Code: code, Message: message };
  if (resultData !== undefined) body.ResultData = resultData;
  return { status: 400, body };
}

/** A status error: {status, message} (401, 403, 404, 429, 500, generic 400). */
export function statusError(status: number, message: string, headers?: Record<string, string>): SandboxResponse {
  return { status, body: { status, message }, headers };
}

/** Generic 400 "invalid or incomplete request" in the status shape. */
export function badRequest(message: string): SandboxResponse {
  return statusError(400, message);
}

export function notFound(message: string): SandboxResponse {
  return statusError(404, message);
}

/** Throwing forms, for validation helpers deep in a handler. */
export function failCoded(code: number, message: string, resultData?: unknown): never {
  throw new RouteError(coded(code, message, resultData));
}
export function failStatus(status: number, message: string): never {
  throw new RouteError(statusError(status, message));
}

/**
 * The request body as a JSON object, or a generic 400 in the status shape
 * {status, message} (service-spec.md "Errors": "generic invalid or incomplete
 * request"). `what` names what the body should hold, e.g. "the template".
 */
export function requireBodyObject(body: unknown, what: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) failStatus(400, `The request body must be a JSON object (${what}).`);
  return body as Record<string, unknown>;
}

// ---- matching ---------------------------------------------------------------

interface CompiledRoute {
  def: RouteDef;
  parts: string[];
}

interface RouteMatch {
  def: RouteDef;
  params: Record<string, string>;
}

export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: RouteDef[]) {
    this.compiled = routes.map((def) => ({ def, parts: splitPath(def.pattern) }));
  }

  /** The route for method + path, or undefined. Literal segments win over parameters. */
  match(method: string, path: string): RouteMatch | undefined {
    const parts = splitPath(path);
    let best: { route: CompiledRoute; params: Record<string, string>; literals: number } | undefined;
    for (const route of this.compiled) {
      if (route.def.method !== method || route.parts.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let literals = 0;
      let matched = true;
      for (let i = 0; i < parts.length; i++) {
        const want = route.parts[i];
        const got = parts[i];
        if (want.startsWith(':')) {
          let decoded: string;
          try {
            decoded = decodeURIComponent(got);
          } catch {
            matched = false;
            break;
          }
          params[want.slice(1)] = decoded;
        } else if (want === got) {
          literals++;
        } else {
          matched = false;
          break;
        }
      }
      if (matched && (!best || literals > best.literals)) best = { route, params, literals };
    }
    return best ? { def: best.route.def, params: best.params } : undefined;
  }

  /** Methods some route accepts on this path (for a 405's Allow header); empty when no route has the path at all. */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.compiled) {
      if (methods.has(route.def.method)) continue;
      if (this.match(route.def.method, path)) methods.add(route.def.method);
    }
    return [...methods];
  }
}

function splitPath(path: string): string[] {
  return path.split('/').filter((p) => p.length > 0);
}
