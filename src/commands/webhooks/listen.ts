// `email webhooks listen`: the definition; the receiver is listen-session.ts,
// loaded when the command runs, whose events are records without end.
import { defineCommand } from '../define.js';
import { options } from './listen-options.js';

/** The fields of a printed event (service-spec.md "Webhooks"; ListID from its delivery): what --fields accepts. */
const WEBHOOK_EVENT_FIELDS = ['Type', 'Date', 'OldEmailAddress', 'EmailAddress', 'Name', 'State', 'CustomFields', 'CustomFields.Key', 'CustomFields.Value', 'SignupIPAddress', 'ListID'];

export default defineCommand({
  name: 'listen',
  summary: 'Run a local receiver for webhook deliveries and print each event',
  options,
  records: { fields: WEBHOOK_EVENT_FIELDS },
  examples: [
    'email webhooks listen',
    'email webhooks listen --port 0 -o ndjson | jq .EmailAddress',
    'email webhooks listen --forward-to http://localhost:3000/hooks --save deliveries/',
    'email webhooks listen --events Subscribe,Update -o ndjson',
  ],
  async run(input, ctx) {
    const { listenCommand } = await import('./listen-session.js');
    return listenCommand(input, ctx);
  },
});
