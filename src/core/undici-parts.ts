// The three modules of undici the program uses (src/core/undici-lite.ts says
// why these), in one module so that the build bundles them on their own,
// in a bundle of their own (dist/vendor/undici.cjs, scripts/build.mjs): a
// command's help then loads none of undici's 280 KB.
export { default as PoolImpl } from 'undici/lib/dispatcher/pool.js';
export { default as apiRequest } from 'undici/lib/api/api-request.js';
export { default as undiciErrors } from 'undici/lib/core/errors.js';
