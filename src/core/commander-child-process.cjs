// Stands in for node:child_process inside commander, which requires it for executable subcommands
// email never declares; loading it costs every help (bench/README.md). test/cli.test.ts guards it.
module.exports = {
  get spawn() {
    return require('node:child_process').spawn;
  },
};
