// undici's index wires up everything (fetch, WebSocket, mocks); we import only the Pool, request()
// and errors, which is faster to load (bench/README.md). test/core/http fails loudly when an
// upgrade moves them.
import { apiRequest, PoolImpl, undiciErrors } from './undici-parts.js';
import type { Dispatcher, Pool as PoolType, errors as ErrorsType } from 'undici';

export const Pool = PoolImpl as unknown as typeof PoolType;
export const errors = undiciErrors as unknown as typeof ErrorsType;

export function poolRequest(pool: PoolType, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return (apiRequest as (this: PoolType, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>).call(pool, options);
}
