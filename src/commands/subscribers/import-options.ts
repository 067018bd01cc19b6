// The arguments and flags of `email subscribers import`, for its definition
// (import.ts) and for the type of the input import-session.ts takes.
import { choiceOption, idOption, intOption, listOption, requiredArg, switchOption, textOption } from '../define.js';
import { CONSENT_INVALID } from './codes.js';

/** service-spec.md "Limits": at most 1000 subscribers per import call (209). */
export const MAX_BATCH_SIZE = 1000;

export const args = { file: requiredArg('file', 'CSV file, or - for standard input', { complete: 'file' }) };
export const options = {
  list: idOption('--list', 'list id'),
  map: listOption('--map', '<Column=Target>', 'map a column to EmailAddress, Name, ConsentToTrack, a custom field key, or - to ignore'),
  onlyMapped: switchOption('--only-mapped', 'ignore the columns that neither --map nor the header matching maps, instead of sending them as custom fields (an export\'s vendor columns)'),
  includeUnsubscribed: switchOption('--include-unsubscribed', 'send the rows the file marks unsubscribed, cleaned, bounced or without marketing permission (its status columns: Mailchimp\'s UNSUB_TIME, Shopify\'s Accepts Email Marketing, status, …), which are otherwise skipped'),
  allowEmptyNames: switchOption('--allow-empty-names', 'send rows that have no name with an empty Name (the service then empties the stored name of an existing subscriber); without it such rows stop the import before anything is sent'),
  strict: switchOption('--strict', 'refuse a row whole when a custom field value cannot be sent (over 250 characters, not a date), instead of importing it without that value'),
  consent: choiceOption('--consent', '<yes|no|unchanged>', 'ConsentToTrack for rows that have none', ['yes', 'no', 'unchanged'], { code: CONSENT_INVALID }),
  resubscribe: switchOption('--resubscribe', 're-add unsubscribed, inactive or suppressed addresses'),
  queueAutoresponders: switchOption('--queue-autoresponders', 'send date-based automated emails to imported subscribers'),
  restartAutoresponders: switchOption('--restart-autoresponders', 'restart subscription-based automated emails for resubscribed addresses'),
  batchSize: intOption('--batch-size', '<n>', `subscribers per request (1..${MAX_BATCH_SIZE})`, { min: 1, max: MAX_BATCH_SIZE, default: MAX_BATCH_SIZE, code: 209 }),
  concurrency: intOption('--concurrency', '<n>', 'batches in flight at once (1..32)', { min: 1, max: 32, default: 4 }),
  delimiter: textOption('--delimiter', '<c>', 'field delimiter: a character, or tab (default: detected among , ; and tab)'),
  encoding: textOption('--encoding', '<name>', 'text encoding of the file when it has no BOM: utf8, utf16le, utf16be, windows-1252, latin1 (default utf8)'),
  multiSeparator: textOption('--multi-separator', '<s>', 'split a cell into several values of one MultiSelectMany key', { check: 'nonblank' }),
  dateOnly: switchOption('--date-only', 'send the yyyy/mm/dd part of date-time values (2024-01-01 10:00, ISO 8601) in custom-field columns: a Date field keeps no time'),
  dryRun: switchOption('--dry-run', 'parse, map and validate everything; send nothing'),
  failures: textOption('--failures', '<file.csv>', 'write every row that was not imported, with Line, Outcome, Code and Message (- for standard output)', { complete: 'file' }),
  journal: textOption('--journal', '<file>', 'journal of acknowledged batches (default: next to the input file)', { complete: 'file' }),
  resume: switchOption('--resume', 'skip the batches the journal shows done'),
  restart: switchOption('--restart', 'discard the journal of an unfinished import and start from the first row'),
  progress: switchOption('--progress', 'print a progress line every few seconds even when stderr is not a terminal'),
};
