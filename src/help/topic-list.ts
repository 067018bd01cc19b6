// The help topics' names and one-line summaries: what the root help lists and
// what `email help <topic>` accepts. Only this loads with the program; each
// topic's text (src/help/topics.ts) is loaded when it is asked for.

export const HELP_TOPICS = {
  environment: 'every environment variable the tool reads, and their precedence',
  'exit-codes': 'what each exit code means',
  formatting: 'output formats, --fields, --jq, --limit, machine mode on stderr',
  import: 'importing: columns, encodings, dates, consent, journals, failures',
} as const;

export type HelpTopic = keyof typeof HELP_TOPICS;

export function isHelpTopic(word: string): word is HelpTopic {
  return Object.hasOwn(HELP_TOPICS, word);
}

/** The root help's "Help topics:" block, aligned as commander aligns its items. */
export function helpTopicsBlock(): string {
  const width = Math.max(...Object.keys(HELP_TOPICS).map((t) => t.length)) + 2;
  const lines = Object.entries(HELP_TOPICS).map(([name, summary]) => `  ${name.padEnd(width)}${summary}`);
  return `\nHelp topics (email help <topic>):\n${lines.join('\n')}\n`;
}
