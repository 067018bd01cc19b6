// The three undici modules we use, in one module so the build bundles them apart
// (dist/vendor/undici.cjs): a command's help loads none of undici.
export { default as PoolImpl } from 'undici/lib/dispatcher/pool.js';
export { default as apiRequest } from 'undici/lib/api/api-request.js';
export { default as undiciErrors } from 'undici/lib/core/errors.js';
