import { defineGroup } from '../define.js';
import create from './create.js';

export default defineGroup({ name: 'customfields', summary: 'Manage custom fields of a list', commands: [create] });
