// undici's index module wires up everything it has (fetch, WebSocket, caches,
// proxies, mocks). We need a keep-alive Pool, the request() API and the error
// classes, so we import those three modules directly: a read took 0.82× of
// its time against importing undici's index (bench/README.md). The version is
// pinned by the lock file; test/core/http exercises this path on every run,
// so an undici upgrade that moves them fails loudly.
import { apiRequest, PoolImpl, undiciErrors } from './undici-parts.js';
import type { Dispatcher, Pool as PoolType, errors as ErrorsType } from 'undici';

export const Pool = PoolImpl as unknown as typeof PoolType;
export const errors = undiciErrors as unknown as typeof ErrorsType;

/** Dispatcher.request() of the full undici build, bound to our pool. */
export function poolRequest(pool: PoolType, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return (apiRequest as (this: PoolType, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>).call(pool, options);
}
