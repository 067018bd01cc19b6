// undici's index module wires up everything it has (fetch, WebSocket, caches,
// proxies, mocks). We need a keep-alive Pool, the request() API and the error
// classes, so we import those three modules directly. Measured on 2026-11-23
// (`email api /email/clients/scheduled` against a loopback sandbox, medians of
// 15 paired whole-process runs on the 2-core machine): 117 ms this way, 140 ms
// importing undici's index (0.82×). The version is pinned by the lock file; test/core/http
// exercises this path on every run, so an undici upgrade that moves them fails loudly.
import { apiRequest, PoolImpl, undiciErrors } from './undici-parts.js';
import type { Dispatcher, Pool as PoolType, errors as ErrorsType } from 'undici';
import { setV8Flag } from './v8-flags.js';

// undici parses responses with llhttp compiled to WebAssembly on the first
// connection. V8 then optimises every wasm function on background threads, and
// process exit waits for that work. Responses here are small JSON bodies, so
// the baseline compiler is plenty; it must be chosen before the module is
// compiled. Measured as above: 114 ms with --liftoff-only, 187 ms without
// (0.61×); bench/startup.bench.mjs's read-command ratio carries it.
// Its V8 default is restored with the two flags it turned off by implication
// (tested in test/launch.test.ts: a cache made after a read is accepted).
setV8Flag('--liftoff-only', '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering');

export const Pool = PoolImpl as unknown as typeof PoolType;
export const errors = undiciErrors as unknown as typeof ErrorsType;

/** Dispatcher.request() of the full undici build, bound to our pool. */
export function poolRequest(pool: PoolType, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return (apiRequest as (this: PoolType, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>).call(pool, options);
}
