import { defineGroup } from '../define.js';
import addRules from './add-rules.js';
import clearRules from './clear-rules.js';
import create from './create.js';
import get from './get.js';
import update from './update.js';

export default defineGroup({ name: 'segments', summary: 'Create and change segments of a list', commands: [create, get, update, addRules, clearRules] });
