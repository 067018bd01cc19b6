// docs/reference.md, generated from the command definitions so its tables cannot drift;
// test/completion checks the committed file is current.
import { completionCommand } from './command.js';
import type { AnyCommand, ArgDecl, Entry, OptionDecl } from '../commands/define.js';
import { GLOBAL_OPTIONS } from '../commands/globals.js';
import { loadCommands } from '../commands/index.js';

export async function commandReference(): Promise<string> {
  const entries: Entry[] = [
    ...(await loadCommands()),
    completionCommand(loadCommands, () => {
      throw new Error('the reference does not need the program');
    }),
  ];
  const out: string[] = [
    '# Command reference',
    '',
    '<!-- Generated from the command definitions (src/commands/): `npm run build && node scripts/gen-completions.mjs`. Do not edit by hand. -->',
    '',
    'Every command, its arguments and options. An id given as the first argument can also be given with its flag',
    '(`email campaigns summary <id>` or `--campaign <id>`). Choices are matched without regard to case.',
    '',
    '| command | does |',
    '|---|---|',
  ];
  const leaves: [path: string, def: AnyCommand][] = [];
  for (const entry of entries) {
    if ('commands' in entry) for (const def of entry.commands) leaves.push([`${entry.name} ${def.name}`, def]);
    else if (!entry.hidden) leaves.push([entry.name, entry]);
  }
  for (const [path, def] of leaves) out.push(`| [\`email ${path}\`](#email-${path.replace(/ /g, '-')}) | ${cell(def.summary)} |`);
  out.push('', '## Global options', '', 'On every command, before or after it.', '', ...optionTable(Object.values(GLOBAL_OPTIONS)));
  for (const [path, def] of leaves) {
    const args = Object.values((def.args ?? {}) as Record<string, ArgDecl>);
    const options = Object.values((def.options ?? {}) as Record<string, OptionDecl>);
    out.push('', `## email ${path}`, '', cell(def.summary), '', '```', `email ${path}${args.map(usageOf).join('')}${options.length ? ' [options]' : ''}`, '```');
    if (def.description) out.push('', def.description.replace(/\n/g, ' '));
    if (args.length) {
      out.push('', '| argument | meaning |', '|---|---|');
      for (const a of args) out.push(`| \`${a.name}\`${a.variadic ? '…' : ''} | ${cell(a.description)}${a.kind === 'id' ? ` (or \`${a.flag} <id>\`)` : ''}${a.choices ? `: ${a.choices.join(', ')}` : ''} |`);
    }
    if (options.length) out.push('', ...optionTable(options));
    if (def.examples.length) out.push('', 'Examples:', '', '```sh', ...def.examples, '```');
  }
  return `${out.join('\n')}\n`;
}

function usageOf(a: ArgDecl): string {
  const name = `${a.name}${a.variadic ? '...' : ''}`;
  return a.required && a.kind !== 'id' ? ` <${name}>` : ` [${name}]`;
}

function optionTable(options: readonly OptionDecl[]): string[] {
  const rows = ['| option | meaning |', '|---|---|'];
  for (const o of options) {
    const flags = `${o.short ? `${o.short}, ` : ''}${o.flag}${o.kind === 'switch' ? '' : ` ${o.placeholder}`}`;
    const notes: string[] = [];
    if (o.kind === 'choice') notes.push(`one of ${o.choices.join(', ')}`);
    if (o.kind === 'int') {
      const range = o.max !== undefined ? `${o.min}..${o.max}` : `at least ${o.min}`;
      if (!o.description.includes(range)) notes.push(range);
    }
    if (o.kind === 'list') notes.push('repeatable');
    if ('required' in o && o.required) notes.push('required');
    if ('default' in o && o.default !== undefined) notes.push(`default ${o.default}`);
    if (o.code !== undefined) notes.push(`refused with code ${o.code}`);
    rows.push(`| \`${cell(flags)}\` | ${cell(o.description)}${notes.length ? ` (${notes.join('; ')})` : ''} |`);
  }
  return rows;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
