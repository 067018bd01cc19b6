// Stands in for node:child_process inside commander (scripts/build.mjs):
// commander requires it when loaded, for executable subcommands, which email
// never declares. Loading it for real costs every command its dgram and
// child-process modules, and net: `email campaigns --help > file` 0.974-0.988×
// with this stand-in, 0.995× with stdout a pipe (medians of 60 paired runs,
// 2026-11-23).
module.exports = {
  get spawn() {
    return require('node:child_process').spawn;
  },
};
