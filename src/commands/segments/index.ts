import type { Command } from 'commander';
import { collect, examples, type Lazy } from '../../program.js';

export function register(program: Command, lazy: Lazy): void {
  const segments = program.command('segments').description('Create and change segments of a list');
  const ruleHelp = 'a rule group: rules joined by " OR ", each "RuleType Clause"; repeat to AND groups';

  segments
    .command('create')
    .description('Create a segment and print its id')
    .requiredOption('--list <id>', 'list id')
    .option('--title <t>', 'segment title (required; unique within the list)')
    .option('--group <rules>', ruleHelp, collect)
    .option('--from-file <json>', 'the request body {Title, RuleGroups} as JSON: @file, @- for stdin, or inline')
    .addHelpText(
      'after',
      examples(
        'email segments create --list <id> --title "Gmail" --group "EmailAddress CONTAINS @gmail.com"',
        'email segments create --list <id> --title "2024 joiners at a or b" --group "EmailAddress CONTAINS @a.com OR EmailAddress CONTAINS @b.com" --group "DateSubscribed AFTER 2024/01/01"',
        'email segments create --list <id> --from-file @segment.json',
      ),
    )
    .action(lazy(() => import('./create.js')));

  segments
    .command('get')
    .description('Show a segment with its rule groups and active subscriber count')
    .requiredOption('--segment <id>', 'segment id')
    .addHelpText('after', examples('email segments get --segment <id>', 'email segments get --segment <id> --json'))
    .action(lazy(() => import('./get.js')));

  segments
    .command('update')
    .description('Rename a segment; with --group, replace ALL of its rules (without --group, rules are kept)')
    .requiredOption('--segment <id>', 'segment id')
    .option('--title <t>', 'segment title (required: the update always sets it)')
    .option('--group <rules>', `${ruleHelp}; replaces every existing rule`, collect)
    .addHelpText(
      'after',
      `\nGiving --group replaces all existing rules of the segment by the groups given.\nLeaving --group out keeps the rules as they are. To remove every rule, use\n\`email segments clear-rules\`; to add a group, \`email segments add-rules\`.\n${examples(
        'email segments update --segment <id> --title "Gmail users"',
        'email segments update --segment <id> --title Gmail --group "EmailAddress CONTAINS @gmail.com"',
      )}`,
    )
    .action(lazy(() => import('./update.js')));

  segments
    .command('add-rules')
    .description('Add one rule group (one more AND requirement) to a segment')
    .requiredOption('--segment <id>', 'segment id')
    .requiredOption('--group <rules>', 'rules joined by " OR ", each "RuleType Clause"', collect)
    .addHelpText('after', examples('email segments add-rules --segment <id> --group "DateSubscribed AFTER 2024/01/01"'))
    .action(lazy(() => import('./add-rules.js')));

  segments
    .command('clear-rules')
    .description('Remove every rule of a segment, leaving it blank')
    .requiredOption('--segment <id>', 'segment id')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .addHelpText('after', examples('email segments clear-rules --segment <id>', 'email segments clear-rules --segment <id> --yes'))
    .action(lazy(() => import('./clear-rules.js')));
}
