// The text of `email help <topic>`, built from the definitions the code uses
// (the environment list, the exit-code table, the option declarations), so a
// new variable, code or option shows here without anyone editing this file.
// Loaded only when a topic is asked for (src/program.ts).
import type { OptionDecl } from '../commands/define.js';
import { LIST_OPTIONS, RECORD_OPTIONS } from '../commands/define.js';
import { GLOBAL_OPTIONS } from '../commands/globals.js';
import importCommand from '../commands/subscribers/import.js';
import { ENVIRONMENT } from '../core/environment.js';
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
  return page('environment', [fill('A flag on the command line always wins over a variable, and a variable over the profile in the config file. The tool reads no other variable.'), ...entries]);
}

function exitCodes(): string {
  const rows = EXIT_CODE_MEANINGS.map(([code, meaning]) => `  ${String(code).padEnd(5)}${fill(meaning, ' '.repeat(7)).trimStart()}`);
  return page('exit-codes', [
    rows.join('\n'),
    fill('Under --json or -o json|ndjson the error is also the last line of stderr, one JSON object: {"error":{"kind":…,"message":…}}, where kind is one of usage, auth, service, network, rate-limit, interrupted, partial.'),
  ]);
}

function formatting(): string {
  const { output, json, quiet } = GLOBAL_OPTIONS;
  return page('formatting', [
    [option(output), option(json), option(quiet)].join('\n'),
    fill('table is a bordered table on a terminal and plain tab-separated lines, without colour or borders, in a pipe or a file, so cut and awk work. json is the service\'s own data with its field names, unchanged: a list or paged command prints one JSON array of records whatever its paging flags; ndjson prints one record a line; csv has a header line and is safe to open in a spreadsheet. Without -o or --json (or --jq), the profile\'s stored format is used (`email config set output json`), machine mode included.'),
    [option(RECORD_OPTIONS.fields), option(RECORD_OPTIONS.jq), option(LIST_OPTIONS.limit), option(RECORD_OPTIONS.wide), option(RECORD_OPTIONS.bom)].join('\n'),
    fill('--fields keeps these fields, in this order, in every format; names are matched without regard to case, and an unknown one is exit 2 listing the known ones, before anything is sent. --jq uses the real jq language; a malformed expression is exit 2 before anything is sent. --limit counts the records --json prints, in every format, and requests no page past the one that reaches n.'),
    fill('A table at a terminal is never wider than it: ids and dates stay whole, free text and URLs shorten with …, and a table that cannot fit is drawn as one block per record; --wide shows a column that repeats on every row (a list id). CSV gives an object columns (Query.From) and an array rows, one element a row; --bom starts it with a byte-order mark for spreadsheets.'),
    fill('Machine mode: under --json, -o json or -o ndjson, stderr is NDJSON too: every notice, warning and progress line is one JSON object with a type and a message, and when the command fails (exit 1, 2, 3, 4 or 130) the error object is the last line, so `2>err.json; jq -s last err.json` always works.'),
  ]);
}

function importTopic(): string {
  const options = Object.values(importCommand.options ?? {}) as OptionDecl[];
  const named = (flag: string) => options.find((o) => o.flag === flag)!;
  return page('import', [
    fill('Usage: email subscribers import <file|-> --list <id> [options]. The input is a CSV file, - (standard input), a FIFO or a process substitution; a gzip-compressed input is read as its CSV. Memory does not grow with the file.'),
    `Columns\n${fill('Without --map, headers are matched without regard to case to the common spellings (email, Email Address, name, First Name + Last Name, …); the other columns become custom fields keyed by their header (named once on stderr), unless --only-mapped. A header of more than 1,000 columns is exit 2.', '  ')}\n${option(named('--map'))}\n${option(named('--only-mapped'))}\n${option(named('--delimiter'))}`,
    `Encodings\n${fill('A file that starts with a byte-order mark is read as the mark says, whatever --encoding says. A first line sep=; (as spreadsheets write it) names the delimiter.', '  ')}\n${option(named('--encoding'))}`,
    `Dates\n${fill('A value shaped like a date is sent year first (YYYY/MM/DD). A date written with slashes is read when only one reading is a calendar date (15/03/1990 is 1990/03/15); when both readings are dates and differ (03/04/1990) the row is rejected as ambiguous, with both year-first spellings suggested.', '  ')}`,
    `Consent\n${fill('Every subscriber needs ConsentToTrack. A file with no consent column, imported without --consent, is exit 2 before anything is sent.', '  ')}\n${option(named('--consent'))}`,
    `Journals\n${fill('Progress is journaled as batches are acknowledged. The journal belongs to one import (the input, the list, the options and the service); --resume against anything else is exit 2 naming what differs. It is written readable by you only, and one import at a time holds it.', '  ')}\n${option(named('--journal'))}\n${option(named('--resume'))}\n${option(named('--restart'))}`,
    `Failures files\n${fill(`Every row that was not imported, with its own columns plus ${FAILURE_COLUMNS.join(', ')}; UTF-8 with a byte-order mark, readable by you only. Fix its rows and import it again: its duplicate rows are skipped, so only the fixed rows are sent.`, '  ')}\n${option(named('--failures'))}`,
    fill('Every row ends in one outcome: new, existing, failed at the service, rejected before sending, or duplicate of an earlier row; the summary\'s counts add up to the rows. Exit 3 when some rows were not imported (email help exit-codes).'),
  ]);
}

const TOPICS: Record<HelpTopic, () => string> = { environment, 'exit-codes': exitCodes, formatting, import: importTopic };

export function helpTopicText(topic: HelpTopic): string {
  return TOPICS[topic]();
}
