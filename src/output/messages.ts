// The one writer of messages on stderr (CLI.md "stdout / stderr", "machine
// mode"): notices, warnings, progress, wait announcements, paging facts,
// --debug traces and the closing error all go through it, so their form is
// decided here once.
//
// - For people (`-o table`, `-o csv`): one text line each, `warning: …` and
//   `[debug] …` prefixed as before.
// - Machine mode (`--json`, `-o json`, `-o ndjson`): one JSON object a line,
//   `{"type": …, "message": …, …fields}`; the message stays the text a person
//   reads, so a CI log stays readable. The types and their fields are listed in
//   docs/scripting.md ("stderr in machine mode").
//
// By construction: in machine mode the stderr edge itself (src/output/edges.ts
// machineLines) turns any line that is not already one JSON object into a
// `notice`, so a message written past this writer still parses.
import type { Writable } from './writable.js';
import { jsonForTerminal, neutralizeLines } from './sanitize.js';

/** The `type` of a machine-mode line (docs/scripting.md). */
export type MessageType = 'notice' | 'warning' | 'progress' | 'wait' | 'page' | 'debug' | 'error';

/** Extra fields of a line: numbers and words a script may read beside the message. */
export type MessageFields = Record<string, string | number | boolean | null | undefined>;

export interface Messages {
  /** True under --json, -o json, -o ndjson: every stderr line is one JSON object. */
  readonly machine: boolean;
  emit(type: MessageType, message: string, fields?: MessageFields): void;
}

/** The formats whose stderr is NDJSON (CLI.md "machine mode"). */
export function isMachineFormat(format: string | undefined): boolean {
  return format === 'json' || format === 'ndjson';
}

const HUMAN_PREFIX: Partial<Record<MessageType, string>> = { warning: 'warning: ', debug: '[debug] ' };

export function createMessages(stderr: Writable, machine: boolean, redact: (text: string) => string = (t) => t): Messages {
  return {
    machine,
    emit(type, message, fields) {
      const text = redact(message);
      if (!machine) {
        stderr.write(`${HUMAN_PREFIX[type] ?? ''}${text}\n`);
        return;
      }
      // Blank lines that space a message out for people carry nothing in an object.
      stderr.write(`${machineLine({ type, message: text.replace(/^\n+|\n+$/g, ''), ...definedFields(fields) })}\n`);
    },
  };
}

/**
 * One JSON object as a line of stderr: controls JSON.stringify leaves raw (C1,
 * bidi overrides) escaped as `\uXXXX`, so the line stays valid JSON with the same value.
 * Its `message` and `hint` are text for people in either mode, so what they
 * quote of a file or a sender shows as visible escapes, as on the human line:
 * a script's `jq -r .message` prints no escape sequence that acts. Every other
 * field (an error's `error.message`, counts) keeps its value exactly.
 */
export function machineLine(object: Record<string, unknown>): string {
  const line = { ...object };
  for (const key of ['message', 'hint'] as const) if (typeof line[key] === 'string') line[key] = neutralizeLines(line[key]);
  return jsonForTerminal(JSON.stringify(line));
}

function definedFields(fields: MessageFields | undefined): MessageFields {
  if (!fields) return {};
  const out: MessageFields = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && k !== 'type' && k !== 'message') out[k] = v;
  return out;
}

/**
 * What the stderr edge does to text in machine mode: every complete line that
 * is one JSON object passes; any other line becomes a `notice` object holding
 * it. A line without its line break waits for the rest (`flush` writes it).
 */
export function machineLines(): { filter(text: string): string; flush(): string } {
  let pending = '';
  const lineOf = (line: string): string => {
    if (line.startsWith('{') && line.endsWith('}')) {
      try {
        const value: unknown = JSON.parse(line);
        if (value && typeof value === 'object' && !Array.isArray(value)) return jsonForTerminal(line);
      } catch {
        // Not JSON after all: wrapped below.
      }
    }
    return machineLine({ type: 'notice', message: line });
  };
  return {
    filter(text) {
      const parts = (pending + text).split('\n');
      pending = parts.pop()!;
      // A blank line (spacing for people) carries nothing: left out.
      return parts
        .map((line) => line.replace(/\r$/, ''))
        .filter((line) => line.trim() !== '')
        .map((line) => `${lineOf(line)}\n`)
        .join('');
    },
    flush() {
      const rest = pending;
      pending = '';
      return rest.trim() === '' ? '' : `${lineOf(rest)}\n`;
    },
  };
}
