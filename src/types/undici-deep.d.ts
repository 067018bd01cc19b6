// Deep imports of undici's CommonJS modules (src/core/undici-parts.ts, see src/core/undici-lite.ts); typed there by casts.
declare module 'undici/lib/dispatcher/pool.js' {
  const Pool: unknown;
  export default Pool;
}
declare module 'undici/lib/api/api-request.js' {
  const request: unknown;
  export default request;
}
declare module 'undici/lib/core/errors.js' {
  const errors: unknown;
  export default errors;
}
