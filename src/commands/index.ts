// Every command of the program, in the order the root help lists them (then
// `completion`, which program.ts adds with the root it describes). A new
// command is one file beside its group's others, named in its group's index.
import api from './api/api.js';
import auth from './auth/index.js';
import campaigns from './campaigns/index.js';
import config from './config/index.js';
import customfields from './customfields/index.js';
import type { AnyCommand, GroupDefinition } from './define.js';
import doctor from './doctor/doctor.js';
import ids from './completion/ids.js';
import profiles from './completion/profiles.js';
import sandbox from './sandbox/sandbox.js';
import segments from './segments/index.js';
import subscribers from './subscribers/index.js';
import templates from './templates/index.js';
import transactional from './transactional/index.js';
import webhooks from './webhooks/index.js';

export const COMMANDS: readonly (AnyCommand | GroupDefinition)[] = [
  auth,
  subscribers,
  customfields,
  segments,
  campaigns,
  templates,
  transactional,
  webhooks,
  api,
  config,
  sandbox,
  doctor,
  profiles,
  ids,
];
