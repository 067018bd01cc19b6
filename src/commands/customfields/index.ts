import { Option, type Command } from 'commander';
import { collect, examples, type Lazy } from '../../program.js';

/** service-spec.md "Custom field definition": DataType enum. */
export const DATA_TYPES = ['Text', 'Number', 'MultiSelectOne', 'MultiSelectMany', 'Date', 'Country', 'USState'] as const;

export function register(program: Command, lazy: Lazy): void {
  const customfields = program.command('customfields').description('Manage custom fields of a list');
  customfields
    .command('create')
    .description('Create a custom field on a list and print its key')
    .requiredOption('--list <id>', 'list id')
    .requiredOption('--name <FieldName>', 'field name (the key is generated from it)')
    .addOption(new Option('--type <DataType>', 'data type').choices([...DATA_TYPES]).makeOptionMandatory())
    .option('--option <o>', 'an option of a MultiSelectOne or MultiSelectMany field (repeat)', collect)
    .option('--visible', 'show the field in the preference center')
    .addHelpText(
      'after',
      examples(
        'email customfields create --list <id> --name "Favourite colour" --type Text',
        'email customfields create --list <id> --name Interests --type MultiSelectMany --option Jazz --option Blues --visible',
      ),
    )
    .action(lazy(() => import('../not-implemented.js')));
}
