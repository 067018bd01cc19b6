// Every command of the program, in the order the root help lists them (then
// `completion`, which program.ts adds with the root it describes). A new
// command is one file beside its group's others, named in its group's index.
// Each entry is loaded when named: a command's run builds its own entry alone.
import type { Entry } from './define.js';

const ENTRIES: Record<string, () => Promise<{ default: Entry }>> = {
  auth: () => import('./auth/index.js'),
  subscribers: () => import('./subscribers/index.js'),
  customfields: () => import('./customfields/index.js'),
  segments: () => import('./segments/index.js'),
  campaigns: () => import('./campaigns/index.js'),
  templates: () => import('./templates/index.js'),
  transactional: () => import('./transactional/index.js'),
  webhooks: () => import('./webhooks/index.js'),
  api: () => import('./api/api.js'),
  config: () => import('./config/index.js'),
  sandbox: () => import('./sandbox/sandbox.js'),
  doctor: () => import('./doctor/doctor.js'),
  __profiles: () => import('./completion/profiles.js'),
  __ids: () => import('./completion/ids.js'),
};

export const COMMAND_NAMES: readonly string[] = Object.keys(ENTRIES);

/** The entry `only` names, or every entry. */
export async function loadCommands(only?: string): Promise<Entry[]> {
  const names = only === undefined ? COMMAND_NAMES : [only];
  return Promise.all(names.map(async (name) => (await ENTRIES[name]!()).default));
}
