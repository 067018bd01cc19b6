import { defineGroup } from '../define.js';
import create from './create.js';

export default defineGroup({ name: 'templates', summary: 'Register campaign templates', commands: [create] });
