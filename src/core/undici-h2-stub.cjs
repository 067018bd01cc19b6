// Stands in for undici's client-h2.js, which loads node:http2 on require though our pools never
// use allowH2 (bench/README.md). The build fails when it is missing, test/cli.test.ts when a read
// loads node:http2.
module.exports = function connectH2() {
  throw new Error('HTTP/2 is not used by email: its undici pool is created without allowH2');
};
