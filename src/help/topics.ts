// The text of `email help <topic>`, built from the definitions the code uses
// (the environment list, the exit-code table, the option declarations), so a
// new variable, code or option shows here without anyone editing this file.
// Loaded only when a topic is asked for (src/program.ts).
import type { AnyCommand, OptionDecl } from '../commands/define.js';
import { LIST_OPTIONS, RECORD_OPTIONS } from '../commands/define.js';
import type { GLOBAL_OPTIONS } from '../commands/globals.js';
import { ENVIRONMENT } from '../core/environment.js';
import { RESOLVER_HEADING, RESOLVER_RULES } from '../core/resolver-rules.js';
import { EXIT_CODE_MEANINGS } from '../core/errors.js';
import { FAILURE_COLUMNS } from '../import/mapping.js';
import { HELP_TOPICS, type HelpTopic } from './topic-list.js';

const WIDTH = 80;

/** Words of text filled into lines of at most WIDTH columns, each starting with indent. */
export function fill(text: string, indent = ''): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

function flagsOf(decl: OptionDecl): string {
  return `${decl.short ? `${decl.short}, ` : ''}${decl.flag}${decl.kind === 'switch' ? '' : ` ${decl.placeholder}`}`;
}

/** An option as its help shows it: the flags, then what it does, indented under them. */
function option(decl: OptionDecl): string {
  return `  ${flagsOf(decl)}\n${fill(decl.description, '      ')}`;
}

function page(topic: HelpTopic, sections: string[]): string {
  return `${fill(`email help ${topic}: ${HELP_TOPICS[topic]}.`)}\n\n${sections.join('\n\n')}\n`;
}

function environment(): string {
  const entries = ENVIRONMENT.map((v) => [`  ${v.name}`, fill(v.does, '      '), ...(v.precedence ? [fill(`Precedence: ${v.precedence}`, '      ')] : [])].join('\n'));
  const rules = RESOLVER_RULES.map((r) => `${fill(r.says, '    ').replace(/^ {4}/, '  - ')}`).join('\n');
  return page('environment', [`${RESOLVER_HEADING}\n${rules}`, fill('The variables (the tool reads no other):'), ...entries]);
}

function exitCodes(): string {
  const rows = EXIT_CODE_MEANINGS.map(([code, meaning]) => `  ${String(code).padEnd(5)}${fill(meaning, ' '.repeat(7)).trimStart()}`);
  return page('exit-codes', [
    rows.join('\n'),
    fill('Under --json or -o json|ndjson the error is also the last line of stderr, one JSON object: {"error":{"kind":…,"message":…}}, where kind is one of usage, auth, service, network, rate-limit, interrupted, partial.'),
  ]);
}

function formatting({ globals }: Documented): string {
  const { output, json, quiet } = globals;
  return page('formatting', [
    [option(output), option(json), option(quiet)].join('\n'),
    fill('table is a bordered table on a terminal and plain tab-separated lines, without colour or borders, in a pipe or a file, so cut and awk work. json is the service\'s own data with its field names, unchanged: a list or paged command prints one JSON array of records whatever its paging flags; ndjson prints one record a line; csv has a header line and is safe to open in a spreadsheet. Without -o or --json (or --jq), the profile\'s stored format is used (`email config set output json`) when the service in use is the profile\'s; it sets stdout\'s format only, so at a terminal messages on stderr stay words (off a terminal a stored json or ndjson makes stderr NDJSON, as -o would).'),
    [option(RECORD_OPTIONS.fields), option(RECORD_OPTIONS.jq), option(LIST_OPTIONS.limit), option(RECORD_OPTIONS.wide), option(RECORD_OPTIONS.bom)].join('\n'),
    fill('--fields keeps these fields, in this order, in every format; names are matched without regard to case, and an unknown one is exit 2 listing the known ones, before anything is sent. --jq uses the real jq language; a malformed expression is exit 2 before anything is sent. --limit counts the records --json prints, in every format, and requests no page past the one that reaches n.'),
    fill('A table at a terminal is never wider than it: ids and dates stay whole, free text and URLs shorten with …, and a table that cannot fit is drawn as one block per record; --wide shows a column that repeats on every row (a list id). CSV gives an object columns (Query.From) and an array rows, one element a row; --bom starts it with a byte-order mark for spreadsheets.'),
    fill('Machine mode: under --json, -o json or -o ndjson, stderr is NDJSON too: every notice, warning and progress line is one JSON object with a type and a message, and when the command fails (exit 1, 2, 3, 4 or 130) the error object is the last line, so `2>err.json; jq -s last err.json` always works.'),
  ]);
}

function importTopic({ importCommand }: Documented): string {
  const options = Object.values(importCommand.options ?? {}) as OptionDecl[];
  const named = (flag: string) => options.find((o) => o.flag === flag)!;
  return page('import', [
    fill('Usage: email subscribers import <file|-> --list <id> [options]. The input is a CSV file, - (standard input), a FIFO or a process substitution; a gzip-compressed input is read as its CSV. Memory does not grow with the file.'),
    `Columns\n${fill('Without --map, headers are matched without regard to case to the common spellings (email, Email Address, name, First Name + Last Name, …, and the address columns of contact exports: E-mail 1 - Value, Primary Email, E-mail Address); the other columns become custom fields keyed by their header (named once on stderr), unless --only-mapped. Two columns with one header are exit 2 when both would be sent. Mailchimp\'s TAGS ("a","b" in one cell) are sent as several values. A header of more than 1,000 columns is exit 2.', '  ')}\n${option(named('--map'))}\n${option(named('--only-mapped'))}\n${option(named('--delimiter'))}`,
    `Encodings\n${fill('A file that starts with a byte-order mark is read as the mark says, whatever --encoding says. A first line sep=; (as spreadsheets write it) names the delimiter.', '  ')}\n${option(named('--encoding'))}`,
    `Dates\n${fill('A value shaped like a date is sent year first (YYYY/MM/DD). A date written with slashes is read when only one reading is a calendar date (15/03/1990 is 1990/03/15); when both readings are dates and differ (03/04/1990) the value is left out as ambiguous, with both year-first spellings suggested. A value that cannot be sent (over 250 characters, not a date) costs the value, not the subscriber: the row is imported without it (partial), a line per column says so; --strict rejects such rows whole. A date-time (2024-01-01 10:00, ISO 8601) is sent as it is, and a Date field keeps yyyy/mm/dd only: the columns that hold them are named before the first batch, and --date-only sends their yyyy/mm/dd part.', '  ')}\n${option(named('--strict'))}`,
    `Consent\n${fill('Every subscriber needs ConsentToTrack. A file with no consent column, imported without --consent, is exit 2 before anything is sent. Consent cells are read as exports write them: yes/no, true/false, 1/0, y/n, opted in/opted out, in any case; any other value is exit 2, naming it, before anything is sent.', '  ')}\n${option(named('--consent'))}`,
    `Status columns\n${fill('Rows the file marks unsubscribed, cleaned, bounced or without marketing permission (Mailchimp\'s UNSUB_TIME and CLEAN_TIME, beehiiv\'s status and unsubscribed_at, Shopify\'s Accepts Email Marketing, HubSpot\'s Unsubscribed from all email, a status, subscribed or opt-in column) are not sent: each such column is named on stderr with the rows it keeps back, the rows count as rejected (skipped in the summary, outcome skipped in the failures file, and still skipped when that file is imported again). A value such a column holds that the import cannot read is exit 2 before anything is sent.', '  ')}\n${option(named('--include-unsubscribed'))}`,
    `Names\n${fill('An empty Name empties the stored name of an existing subscriber. Rows that would be sent with one (no name column, or empty name cells) stop the import before anything is sent (exit 2), counted, unless --allow-empty-names.', '  ')}\n${option(named('--allow-empty-names'))}`,
    `Journals\n${fill('Progress is journaled as batches are acknowledged. The journal belongs to one import (the input, the list, the options and the service); --resume against anything else is exit 2 naming what differs. It is written readable by you only, and one import at a time holds it. Where the input\'s folder cannot be written, it goes to your state directory (~/.local/state/email-cli/import-journals), and the import says where.', '  ')}\n${option(named('--journal'))}\n${option(named('--resume'))}\n${option(named('--restart'))}`,
    `Failures files\n${fill(`Every row that was not imported, with its own columns plus ${FAILURE_COLUMNS.join(', ')}; UTF-8 with a byte-order mark, readable by you only. Rows imported without a value are listed as partial. Fix its rows and import it again: its duplicate rows are skipped unless you corrected their address, so only the fixed rows are sent.`, '  ')}\n${option(named('--failures'))}`,
    fill('Every row ends in one outcome: new, existing, failed at the service, rejected before sending, or duplicate of an earlier row; the summary\'s counts add up to the rows. Exit 3 when some rows were not imported (email help exit-codes).'),
  ]);
}

/** The definitions the topics document, handed over by src/program.ts: imported here, esbuild would wrap them as modules loaded later. */
export interface Documented {
  globals: typeof GLOBAL_OPTIONS;
  importCommand: AnyCommand;
}

const TOPICS: Record<HelpTopic, (documented: Documented) => string> = { environment, 'exit-codes': exitCodes, formatting, import: importTopic };

export function helpTopicText(topic: HelpTopic, documented: Documented): string {
  return TOPICS[topic](documented);
}
