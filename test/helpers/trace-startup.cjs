// Preloaded (`node -r`) into a run of bin/email by test/cli.test.ts: at exit,
// writes to TRACE_OUT the files the run read with fs.readFileSync (how
// bin/email and Node's CommonJS loader read the program's
// files) and the public Node modules it loaded that a bare `node` does not.
'use strict';
const fs = require('node:fs');
const before = new Set(process.moduleLoadList);
const read = [];
const readFileSync = fs.readFileSync;
fs.readFileSync = function tracedReadFileSync(path, ...rest) {
  read.push(String(path));
  return readFileSync.call(this, path, ...rest);
};
process.on('exit', () => {
  const builtins = process.moduleLoadList
    .filter((m) => !before.has(m) && m.startsWith('NativeModule ') && !m.startsWith('NativeModule internal/'))
    .map((m) => m.slice('NativeModule '.length));
  fs.writeFileSync(process.env.TRACE_OUT, JSON.stringify({ read, builtins }));
});
