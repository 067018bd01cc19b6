import { defineGroup } from '../define.js';
import get from './get.js';
import list from './list.js';
import set from './set.js';
import unset from './unset.js';

export default defineGroup({
  name: 'config',
  summary: 'Per-profile defaults: the default --list, output format and pager',
  commands: [get, set, unset, list],
});
