// undici's index module wires up everything it has (fetch, WebSocket, caches,
// proxies, mocks). We need a keep-alive Pool, the request() API and the error
// classes, so we import those three modules directly. Measured on 2026-11-23
// (`email api /email/clients/scheduled` against a loopback sandbox, medians of
// 15 paired whole-process runs on the 2-core machine): 117 ms this way, 140 ms
// importing undici's index (0.82×). The version is pinned by the lock file; test/core/http
// exercises this path on every run, so an undici upgrade that moves them fails loudly.
import { apiRequest, PoolImpl, undiciErrors } from './undici-parts.js';
import type { Dispatcher, Pool as PoolType, errors as ErrorsType } from 'undici';

// undici parses responses with llhttp compiled to WebAssembly on the first
// connection. On Node 20, V8 then optimises every wasm function on background
// threads, and process exit waits for that work; the baseline compiler is
// plenty for small JSON bodies, and it must be chosen before the module is
// compiled. Measured with paired whole-process runs (`email campaigns sent
// --json`, one loopback request, over `node -e 0`): Node 20 1.55× with
// --liftoff-only, 2.9× without; Node 22, 24 and 26 gain nothing from it (their
// V8 tiers up lazily), so it is set on Node 20 alone (bench/startup.bench.mjs;
// figures in docs/architecture.md "Start-up").
// V8 writes an error for a flag it does not know straight to stderr, past
// src/output/edges.ts: this flag is set only on Node 20, whose V8 (11.3) is
// fixed and knows it.
if (process.versions.node.startsWith('20.')) {
  (process.getBuiltinModule('node:v8') as typeof import('node:v8')).setFlagsFromString('--liftoff-only');
}

export const Pool = PoolImpl as unknown as typeof PoolType;
export const errors = undiciErrors as unknown as typeof ErrorsType;

/** Dispatcher.request() of the full undici build, bound to our pool. */
export function poolRequest(pool: PoolType, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return (apiRequest as (this: PoolType, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>).call(pool, options);
}
