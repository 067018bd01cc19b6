// The one writer of messages on stderr, so their form is decided once: text
// lines for people; in machine mode one JSON object a line whose `message` stays
// readable text (docs/scripting.md). The stderr edge wraps any other line as a
// `notice`, so a message written past this writer still parses.
import type { Writable } from './writable.js';
import { jsonForTerminal, neutralizeLines } from './sanitize.js';

export type MessageType = 'notice' | 'warning' | 'progress' | 'wait' | 'page' | 'debug' | 'error';

export type MessageFields = Record<string, string | number | boolean | null | undefined>;

export interface Messages {
  readonly machine: boolean;
  emit(type: MessageType, message: string, fields?: MessageFields): void;
}

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

/** One JSON line with controls escaped; `message` and `hint` show quoted text as visible escapes, other fields keep their value. */
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

/** Machine mode's stderr filter: a JSON line passes, any other becomes a `notice`; a partial line waits for the rest. */
export function machineLines(): { filter(text: string): string; flush(): string } {
  let pending = '';
  const lineOf = (line: string): string => {
    if (line.startsWith('{') && line.endsWith('}')) {
      try {
        const value: unknown = JSON.parse(line);
        if (value && typeof value === 'object' && !Array.isArray(value)) return jsonForTerminal(line);
      } catch {
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
