// Which values the shells complete with ids from the service (issue 28.1):
// declared on the command definitions (src/commands/define.ts), so a new
// command taking a campaign, smart email or list id is covered by
// construction. This walks the whole program to check that it is.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { allCommands, commandTree, type ValueKind } from '../../src/completion/command-tree.js';
import { loadCommands } from '../../src/commands/index.js';
import { buildProgram } from '../../src/program.js';

/** The resource whose ids a value names, by the argument's or flag's name. */
const ID_OF: Record<string, string> = { campaign: 'campaign', 'smart-email': 'smart-email', list: 'list' };

function* commands(cmd: Command, path: string[] = []): Generator<[string[], Command]> {
  for (const sub of cmd.commands) {
    yield [[...path, sub.name()], sub];
    yield* commands(sub, [...path, sub.name()]);
  }
}

const ENTRIES = await loadCommands();

describe('id completion', () => {
  const program = buildProgram(ENTRIES);
  const tree = [...allCommands(commandTree(program))];
  const spec = (path: string[]) => tree.find((c) => c.path.join(' ') === path.join(' '));

  it('every argument and option that takes a campaign, smart email or list id completes those ids', () => {
    const missing: string[] = [];
    let covered = 0;
    for (const [path, cmd] of commands(program)) {
      const node = spec(path);
      if (!node) continue; // hidden
      const first = cmd.registeredArguments[0];
      const resource = first && ID_OF[first.name()];
      if (resource) {
        covered++;
        if (!sameKind(node.positional, resource)) missing.push(`email ${path.join(' ')} <${first.name()}>`);
      }
      for (const option of cmd.options) {
        const named = option.long && ID_OF[option.long.slice(2)];
        if (!named || !(option.required || option.optional)) continue;
        covered++;
        const kind = node.options.find((o) => o.long === option.long)?.value;
        if (!sameKind(kind, named)) missing.push(`email ${path.join(' ')} ${option.long}`);
      }
    }
    expect(missing).toEqual([]);
    // summary, unsubscribes, preview, unschedule, open (argument and flag), transactional get, the --list options…
    expect(covered).toBeGreaterThan(20);
  });

  it('offers campaign ids for `campaigns summary <TAB>` and `--campaign <TAB>`, smart email ids for `transactional get`', () => {
    expect(spec(['campaigns', 'summary'])?.positional).toEqual({ kind: 'ids', of: 'campaign' });
    expect(spec(['campaigns', 'unschedule'])?.options.find((o) => o.long === '--campaign')?.value).toEqual({ kind: 'ids', of: 'campaign' });
    expect(spec(['transactional', 'get'])?.positional).toEqual({ kind: 'ids', of: 'smart-email' });
    expect(spec(['subscribers', 'import'])?.options.find((o) => o.long === '--list')?.value).toEqual({ kind: 'ids', of: 'list' });
  });
});

function sameKind(kind: ValueKind | undefined, resource: string): boolean {
  return kind?.kind === 'ids' && kind.of === resource;
}
