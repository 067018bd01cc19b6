// Stands in for node:child_process inside commander (scripts/build.mjs):
// commander requires it when loaded, for executable subcommands, which email
// never declares. Loading it for real costs every command, help included,
// its dgram and child-process modules and net (bench/README.md has the
// figure). test/cli.test.ts fails if a group's help loads child_process.
module.exports = {
  get spawn() {
    return require('node:child_process').spawn;
  },
};
