import { Option, type Command } from 'commander';
import { collect, examples, type Lazy } from '../../program.js';
import { DATA_TYPES } from '../../validation/custom-field-definition.js';
import { listValues } from '../../validation/option-checks.js';

/** service-spec.md "Custom field definition": DataType enum. */
export { DATA_TYPES };

export function register(program: Command, lazy: Lazy): void {
  const customfields = program.command('customfields').description('Manage custom fields of a list');
  customfields
    .command('create')
    .description('Create a custom field on a list and print its key')
    .requiredOption('--list <id>', 'list id')
    .option('--name <FieldName>', 'field name (the key is generated from it)')
    // Checked in run() with the service's code 259; the values stay listed for help and completions.
    .addOption(listValues(new Option('--type <DataType>', 'data type'), DATA_TYPES))
    .option('--option <o>', 'an option of a MultiSelectOne or MultiSelectMany field (repeat)', collect)
    .option('--visible', 'show the field in the preference center')
    .addHelpText(
      'after',
      examples(
        'email customfields create --list <id> --name "Favourite colour" --type Text',
        'email customfields create --list <id> --name Genres --type MultiSelectMany --option Jazz --option Blues --visible',
      ),
    )
    .action(lazy(() => import('./create.js')));
}
