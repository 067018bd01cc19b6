// Preloaded (`node -r`) into a run of bin/email by test/cli.test.ts: at exit,
// writes to TRACE_OUT the files the run read with fs.readFileSync (how
// bin/email and Node's CommonJS loader read the program's
// files), the public Node modules it loaded that a bare `node` does not, and
// which of stdout and stderr it built.
'use strict';
const fs = require('node:fs');
const before = new Set(process.moduleLoadList);
const read = [];
const readFileSync = fs.readFileSync;
fs.readFileSync = function tracedReadFileSync(path, ...rest) {
  read.push(String(path));
  return readFileSync.call(this, path, ...rest);
};
// Which of process.stdout and process.stderr the run made Node build (each is
// built on first read: for a pipe, a socket): the getters are wrapped, not changed.
const built = [];
for (const name of ['stdout', 'stderr']) {
  const descriptor = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: descriptor.enumerable,
    get() {
      if (!built.includes(name)) built.push(name);
      return descriptor.get.call(process);
    },
  });
}
process.on('exit', () => {
  const builtins = process.moduleLoadList
    .filter((m) => !before.has(m) && m.startsWith('NativeModule ') && !m.startsWith('NativeModule internal/'))
    .map((m) => m.slice('NativeModule '.length));
  fs.writeFileSync(process.env.TRACE_OUT, JSON.stringify({ read, builtins, streams: built }));
});
