// Stands in for node:assert in undici's bundle (scripts/build.mjs). undici
// calls it only as assert(value[, message]), for invariants of its own; Node's
// assert module, when loaded, builds process.stderr (its error messages ask
// stderr whether it has colours), which for a pipe is a socket of its own.
// Together with ApiClient.settle() (src/core/http.ts), which
// leaves idle connections to the exit
// (either alone leaves stderr to be built by the other), paired with the
// build before (31 interleaved rounds, 2026-11-26, medians): a one-request
// read took 0.97x its time on Node 24 (0.964x its CPU time), 0.98x on 22,
// 0.99x of its CPU time on 26; `email api …` 0.965-0.97x on 24 and 26.
'use strict';
module.exports = function assert(value, message) {
  if (value) return;
  if (message instanceof Error) throw message;
  const error = new Error(message === undefined ? 'The expression evaluated to a falsy value' : String(message));
  error.name = 'AssertionError';
  error.code = 'ERR_ASSERTION';
  throw error;
};
