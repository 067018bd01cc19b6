// The flags of `email webhooks listen`, for its definition (listen.ts) and for
// the type of the input listen-session.ts takes.
import { intOption, textOption } from '../define.js';

export const options = {
  port: intOption('--port', '<n>', 'port to listen on (0 picks a free one)', { min: 0, max: 65535, default: 4020 }),
  host: textOption('--host', '<h>', 'address to listen on', { default: '127.0.0.1' }),
  forwardTo: textOption('--forward-to', '<url>', 'relay each delivery, untouched, to this URL'),
  save: textOption('--save', '<dir>', 'write each delivery to its own file in this directory', { complete: 'dir' }),
  events: textOption('--events', '<Type,…>', 'print only these event types (Subscribe, Update, Deactivate); every delivery is still answered, saved and forwarded whole'),
};
