// Stands in for node:assert in undici's bundle (scripts/build.mjs). undici
// calls it only as assert(value[, message]), for invariants of its own; Node's
// assert module, when loaded, builds process.stderr (its error messages ask
// stderr whether it has colours), which for a pipe is a socket of its own.
// It pays only together with ApiClient.settle() (src/core/http.ts), which
// leaves idle connections to the exit: either alone leaves stderr to be
// built by the other. Without both, `email api …` took 1.02-1.09x its CPU
// time (bench/README.md); test/cli.test.ts fails when a read loads
// node:assert, and the build when this stand-in is not in undici's bundle.
'use strict';
module.exports = function assert(value, message) {
  if (value) return;
  if (message instanceof Error) throw message;
  const error = new Error(message === undefined ? 'The expression evaluated to a falsy value' : String(message));
  error.name = 'AssertionError';
  error.code = 'ERR_ASSERTION';
  throw error;
};
