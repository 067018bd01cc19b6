// Every creation prints the new object's id when the service returns one,
// alone on stdout in a pipe, so `id=$(email … create …)` works; `--json` is
// the answer unchanged (CLI.md's paragraph on creations, issue 20.8). The
// creation whose answer carries no id (campaigns create, per the spec) is in
// test/commands/campaigns.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { startCommandSandbox, type CommandSandbox } from '../helpers/sandbox.js';

const LIST = SEED_LIST_IDS.newsletter;
let s: CommandSandbox;
beforeAll(async () => {
  s = await startCommandSandbox();
});
afterAll(() => s.stop());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n$/i;

describe('a creation in a pipe prints the new id alone', () => {
  const cases: [string, string[], RegExp][] = [
    ['segments create', ['segments', 'create', '--list', LIST, '--title', 'Created ids'], UUID],
    ['templates create', ['templates', 'create', '--name', 'Created ids', '--html-url', 'https://example.com/t.html', '--zip-url', 'https://example.com/t.zip'], UUID],
    ['customfields create', ['customfields', 'create', '--list', LIST, '--name', 'Created ids', '--type', 'Text'], /^\[Createdids\]\n$/],
    ['subscribers add', ['subscribers', 'add', '--list', LIST, '--email', 'created.ids@example.com', '--name', 'C', '--consent', 'yes'], /^created\.ids@example\.com\n$/],
  ];
  for (const [name, argv, id] of cases) {
    it(name, async () => {
      const r = await s.email(argv);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(id);
      const json = await s.email([...argv.map((a) => a.replace('Created ids', 'Created ids json').replace('created.ids@', 'created.ids.json@')), '--json']);
      expect(json.code, json.stderr).toBe(0);
      expect(typeof JSON.parse(json.stdout)).toBe('string');
    });
  }
});
