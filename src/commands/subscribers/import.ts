// email subscribers import: the definition only. The command is import-session.ts,
// loaded only when it runs, since it pulls in the whole import pipeline.
import { defineCommand } from '../define.js';
import type { ImportSummary } from '../../import/tally.js';
import { args, options } from './import-options.js';

/** The --json summary's fields, then those only a --dry-run report has. */
const IMPORT_FIELDS = [
  ...(['rows', 'new', 'existing', 'failed', 'rejected', 'duplicates', 'partial', 'duplicatesFromFailuresFile', 'skipped', 'batches', 'retries', 'rateLimited', 'waitedMs', 'elapsedMs', 'resumed', 'service'] satisfies (keyof ImportSummary)[]),
  'service.TotalUniqueEmailsSubmitted',
  'service.TotalExistingSubscribers',
  'service.TotalNewSubscribers',
  ...([
    'complete', 'dryRun', 'wouldSend', 'resumedBatches', 'unacknowledgedBatches', 'unfinished', 'blankLines', 'codes', 'rowsPerSecond',
    'input', 'list', 'delimiter', 'encoding', 'failuresFile', 'journal', 'stoppedBy',
  ] satisfies (keyof ImportSummary)[]),
  'mapping',
  'problems',
  'firstRequest',
];

export default defineCommand({
  name: 'import',
  summary: 'Import subscribers from a CSV file (or - for stdin), in batches, resumably',
  args,
  options,
  records: { fields: IMPORT_FIELDS },
  examples: [
    'email subscribers import people.csv --list <id>',
    'email subscribers import people.csv --list <id> --map "E-mail=EmailAddress" --map "Notes=-" --dry-run',
    'email subscribers import people.csv --list <id> --failures failed.csv --json',
    'email subscribers import people.csv --list <id> --resume',
  ],
  async run(input, ctx) {
    const { importCommand } = await import('./import-session.js');
    return importCommand(input, ctx);
  },
});
