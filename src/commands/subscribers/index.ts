import { defineGroup } from '../define.js';
import add from './add.js';
import history from './history.js';
import importCommand from './import.js';
import lists from './lists.js';
import update from './update.js';

export default defineGroup({ name: 'subscribers', summary: 'Add, update, import and inspect subscribers', commands: [add, update, importCommand, history, lists] });
