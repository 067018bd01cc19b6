import { defineGroup } from '../define.js';
import listen from './listen.js';
import replay from './replay.js';
import trigger from './trigger.js';

export default defineGroup({ name: 'webhooks', summary: "Receive, trigger and replay the service's webhook deliveries", commands: [listen, replay, trigger] });
