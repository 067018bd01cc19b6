// Stands in for node:assert in undici's bundle: Node's assert builds process.stderr when loaded.
// It pays only with ApiClient.settle() (bench/README.md); test/cli.test.ts fails when a read
// loads node:assert, the build when this stand-in is missing.
'use strict';
module.exports = function assert(value, message) {
  if (value) return;
  if (message instanceof Error) throw message;
  const error = new Error(message === undefined ? 'The expression evaluated to a falsy value' : String(message));
  error.name = 'AssertionError';
  error.code = 'ERR_ASSERTION';
  throw error;
};
