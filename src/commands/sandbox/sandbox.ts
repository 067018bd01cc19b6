// `email sandbox`: the definition; serve.ts starts the local service
// (src/sandbox, loaded only here), which serves until Ctrl-C.
import { defineCommand } from '../define.js';
import { options } from './sandbox-options.js';

/** The fields of the ready line (CLI.md `sandbox`): what --fields accepts. */
const SANDBOX_READY_FIELDS = [
  'baseUrl', 'apiKey', 'lists', 'lists.ListID', 'lists.Name', 'campaigns', 'campaigns.CampaignID', 'campaigns.Name', 'campaigns.Status',
  'segments', 'segments.SegmentID', 'segments.ListID', 'segments.Title', 'smartEmails', 'smartEmails.ID', 'smartEmails.Name', 'smartEmails.Status',
];

export default defineCommand({
  name: 'sandbox',
  summary: 'Run a local, stateful implementation of the service (for trying the tool, rehearsing imports and CI)',
  options,
  // The ready line (CLI.md `sandbox`).
  records: { fields: SANDBOX_READY_FIELDS },
  examples: [
    'email sandbox',
    'email sandbox --port 0 --state sandbox.json --json',
    'email sandbox --rate-limit 5 --fail-rate 0.1 --latency 200',
    'email sandbox --webhook 11111111-1111-4111-8111-111111111111=http://127.0.0.1:4020/hooks --webhook-interval 1000',
  ],
  async run(input, ctx) {
    const { sandboxCommand } = await import('./serve.js');
    return sandboxCommand(input, ctx);
  },
});
