import { defineGroup } from '../define.js';
import get from './get.js';
import list from './list.js';
import stats from './stats.js';

export default defineGroup({
  name: 'transactional',
  summary: 'Inspect smart transactional emails and their statistics',
  commands: [list, get, stats],
});
