// undici's index module wires up everything it has (fetch, WebSocket, caches,
// proxies, mocks): ~1 MB bundled and ~30-50 ms to load. We need a keep-alive
// Pool, the request() API and the error classes, so we import those three
// modules directly. The version is pinned by the lock file; test/unit/http
// exercises this path on every run, so an undici upgrade that moves them fails loudly.
import PoolImpl from 'undici/lib/dispatcher/pool.js';
import apiRequest from 'undici/lib/api/api-request.js';
import undiciErrors from 'undici/lib/core/errors.js';
import type { Dispatcher, Pool as PoolType, errors as ErrorsType } from 'undici';
import { setFlagsFromString } from 'node:v8';

// undici parses responses with llhttp compiled to WebAssembly on the first
// connection. V8 then optimises every wasm function on background threads, and
// process exit waits for that work: ~140 ms added to every short command
// (bench/startup). Responses here are small JSON bodies, so the baseline
// compiler is plenty; it must be chosen before the module is compiled.
setFlagsFromString('--liftoff-only');

export const Pool = PoolImpl as unknown as typeof PoolType;
export const errors = undiciErrors as unknown as typeof ErrorsType;

/** Dispatcher.request() of the full undici build, bound to our pool. */
export function poolRequest(pool: PoolType, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return (apiRequest as (this: PoolType, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>).call(pool, options);
}
