import { defineGroup } from '../define.js';
import create from './create.js';
import open from './open.js';
import preview from './preview.js';
import scheduled from './scheduled.js';
import sent from './sent.js';
import summary from './summary.js';
import unschedule from './unschedule.js';
import unsubscribes from './unsubscribes.js';

export default defineGroup({
  name: 'campaigns',
  summary: 'Create, preview, unschedule and report on campaigns',
  commands: [create, preview, unschedule, unsubscribes, summary, open, scheduled, sent],
});
