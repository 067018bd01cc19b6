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
// compiled. Measured by bench/startup.bench.mjs (31 paired rounds, builds
// with the flag on every line and on none in the same run, 2026-11-26):
// `email campaigns sent --json` on Node 20 took 171 ms with it, 300 ms
// without (1.93× against 3.28× `node -e 0`); on Node 22, 24 and 26 the read
// with it was 1.02×, 0.98× and 0.97× of the read without (noise), so it is
// set on Node 20 alone.
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
