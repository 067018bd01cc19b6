// Stands in for undici's lib/dispatcher/client-h2.js in the bundle
// (scripts/build.mjs). That module loads node:http2 as soon as it is required,
// and undici only calls it when a pool is created with allowH2, which ours
// never is (src/core/http.ts): HTTP/1.1 keep-alive is what the service gets.
// Without it a read took 1.12-1.15x its CPU time (bench/README.md); the build
// fails when this stand-in is not in undici's bundle, test/cli.test.ts when a
// read loads node:http2.
module.exports = function connectH2() {
  throw new Error('HTTP/2 is not used by email: its undici pool is created without allowH2');
};
