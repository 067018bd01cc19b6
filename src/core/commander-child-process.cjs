// Stands in for node:child_process inside commander (scripts/build.mjs):
// commander requires it when loaded, for executable subcommands, which email
// never declares. Loading it for real costs every command its net, dgram and
// child-process modules.
module.exports = {
  get spawn() {
    return require('node:child_process').spawn;
  },
};
