// Custom fields (service-spec.md "Custom field definition", "Create custom
// field", codes 254-259).
import { fieldKeyFor } from '../custom-field-values.js';
import { US_STATES } from '../field-options.js';
import { requireList } from '../lists.js';
import { badRequest, coded, created, requireBodyObject, type RouteDef } from '../router.js';
import type { CustomFieldDataType, CustomFieldDefinition } from '../types.js';

const DATA_TYPES: readonly CustomFieldDataType[] = ['Text', 'Number', 'MultiSelectOne', 'MultiSelectMany', 'Date', 'Country', 'USState'];
const MULTI_VALUED: ReadonlySet<CustomFieldDataType> = new Set(['MultiSelectOne', 'MultiSelectMany']);

/**
 * The spec says only "invalid field name" (254). The sandbox refuses a name
 * that is empty, longer than this, or holds brackets, angle brackets or control
 * characters (brackets delimit the generated Key).
 */
const FIELD_NAME_MAX_LENGTH = 100;
const INVALID_NAME_CHARS = /[[\]<>\u0000-\u001F\u007F]/;

const CUSTOM_FIELD_MESSAGES = {
  254: 'Invalid field name.',
  255: 'Field name already exists in the list.',
  256: 'Options defined for a field that takes none.',
  257: 'No options for a multi-valued field.',
  259: 'Invalid data type.',
} as const;

const createCustomField: RouteDef = {
  method: 'POST',
  pattern: '/email/lists/:listId/customfields',
  handler(req, ctx) {
    // "404 when the list does not exist."
    const list = requireList(ctx, req.params.listId);
    const { FieldName, DataType, FieldOptions, VisibleInPreferenceCenter } = requireBodyObject(req.body, 'the custom field definition');

    if (typeof FieldName !== 'string' || FieldName.trim() === '' || FieldName.length > FIELD_NAME_MAX_LENGTH || INVALID_NAME_CHARS.test(FieldName)) {
      return coded(254, CUSTOM_FIELD_MESSAGES[254]);
    }
    if (typeof DataType !== 'string' || !DATA_TYPES.includes(DataType as CustomFieldDataType)) {
      return coded(259, CUSTOM_FIELD_MESSAGES[259]);
    }
    const dataType = DataType as CustomFieldDataType;
    // "VisibleInPreferenceCenter | boolean | yes": required, no default given (a generic 400, no code).
    if (typeof VisibleInPreferenceCenter !== 'boolean') {
      return badRequest('VisibleInPreferenceCenter is required and must be true or false.');
    }
    if (FieldOptions !== undefined && FieldOptions !== null && !Array.isArray(FieldOptions)) {
      return badRequest('FieldOptions must be an array of strings or null.');
    }
    const options = (FieldOptions ?? []) as unknown[];
    if (options.some((o) => typeof o !== 'string')) return badRequest('FieldOptions must hold strings only.');

    const name = FieldName.trim();
    const key = fieldKeyFor(name);
    if (list.CustomFields.some((f) => f.FieldName.toLowerCase() === name.toLowerCase() || f.Key.toLowerCase() === key.toLowerCase())) {
      return coded(255, CUSTOM_FIELD_MESSAGES[255]);
    }
    // "Required and non-empty for MultiSelectOne and MultiSelectMany; must be
    // null or empty for Text, Number, Date, Country, USState."
    const cleaned = [...new Set((options as string[]).map((o) => o.trim()).filter((o) => o !== ''))];
    if (MULTI_VALUED.has(dataType)) {
      if (cleaned.length === 0) return coded(257, CUSTOM_FIELD_MESSAGES[257]);
    } else if (options.length > 0) {
      return coded(256, CUSTOM_FIELD_MESSAGES[256]);
    }

    const definition: CustomFieldDefinition = {
      FieldName: name,
      Key: key,
      DataType: dataType,
      // Options of USState are generated (spec); Country values are accepted as given.
      FieldOptions: dataType === 'USState' ? [...US_STATES] : MULTI_VALUED.has(dataType) ? cleaned : [],
      VisibleInPreferenceCenter,
    };
    ctx.store.mutate(() => list.CustomFields.push(definition));
    // The spec does not show the 201 body; like the other create calls, a JSON string: the generated Key.
    return created(key);
  },
};

export const routes: RouteDef[] = [createCustomField];
