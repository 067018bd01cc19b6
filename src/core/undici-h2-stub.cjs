// Stands in for undici's lib/dispatcher/client-h2.js in the bundle
// (scripts/build.mjs). That module loads node:http2 as soon as it is required,
// and undici only calls it when a pool is created with allowH2, which ours
// never is (src/core/http.ts): HTTP/1.1 keep-alive is what the service gets.
// Measured on 2026-11-23 (`email campaigns sent --json` against a loopback
// sandbox, medians of 31 paired whole-process runs): 108 ms with the stub,
// 112 ms without.
module.exports = function connectH2() {
  throw new Error('HTTP/2 is not used by email: its undici pool is created without allowH2');
};
