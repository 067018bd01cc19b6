import { DATA_TYPES, INVALID_DATA_TYPE } from '../../schemas/enums.js';
import { rememberLists } from '../completion/seen-lists.js';
import { choiceOption, defineCommand, idOption, listOption, switchOption, textOption } from '../define.js';

export default defineCommand({
  name: 'create',
  summary: 'Create a custom field on a list and print its key',
  options: {
    list: idOption('--list', 'list id'),
    // Blank or missing names are refused by customFieldFrom with the service's 254.
    name: textOption('--name', '<FieldName>', 'field name (the key is generated from it)'),
    // service-spec.md "Custom field definition": any other DataType gives 259.
    type: choiceOption('--type', '<DataType>', 'data type', DATA_TYPES, { required: true, code: INVALID_DATA_TYPE }),
    option: listOption('--option', '<o>', 'an option of a MultiSelectOne or MultiSelectMany field (repeat)'),
    visible: switchOption('--visible', 'show the field in the preference center'),
  },
  records: { fields: [] },
  examples: [
    'email customfields create --list <id> --name "Favourite colour" --type Text',
    'email customfields create --list <id> --name Genres --type MultiSelectMany --option Jazz --option Blues --visible',
  ],
  async run({ list, ...input }, ctx) {
    const [{ createCustomField }, { createdResult }, { customFieldFrom }] = await Promise.all([
      import('../../api/custom-fields.js'),
      import('../created-id.js'),
      import('../../validation/custom-field-definition.js'),
    ]);
    const definition = customFieldFrom(input);
    const answer = await createCustomField(await ctx.api(), list, definition);
    await rememberLists(ctx, [list]);
    return createdResult(ctx, answer, keyOf(answer), `custom field "${definition.FieldName}"`);
  },
});

/** The 201 body is "not shown" in the spec: a bare string (the Key) or an object carrying Key. */
function keyOf(answer: unknown): string | undefined {
  if (typeof answer === 'string') return answer;
  if (answer && typeof answer === 'object' && typeof (answer as { Key?: unknown }).Key === 'string') return (answer as { Key: string }).Key;
  return undefined;
}
