// The custom field definition of a create request (service-spec.md "Custom
// field definition"), checked with the service's codes 254, 256, 257, 259.
import { UsageError } from '../core/errors.js';
import { requireText } from './option-checks.js';

import type { DataType } from '../schemas/enums.js';

const MULTI_VALUED: readonly DataType[] = ['MultiSelectOne', 'MultiSelectMany'];

const CUSTOM_FIELD_CODES = {
  invalidName: 254,
  optionsNotAllowed: 256,
  optionsRequired: 257,
  invalidDataType: 259,
} as const;

export interface CustomFieldDefinition {
  FieldName: string;
  DataType: DataType;
  FieldOptions: string[];
  VisibleInPreferenceCenter: boolean;
}

/** The options of `customfields create`, as typed; --type already matched to a DataType (259). */
export interface CustomFieldInput {
  name?: string;
  type: DataType;
  option: string[];
  visible: boolean;
}

export function customFieldFrom(opts: CustomFieldInput): CustomFieldDefinition {
  const C = CUSTOM_FIELD_CODES;
  const FieldName = requireText(opts.name, '--name', C.invalidName, 'the field name (the key is generated from it)');
  const DataType = opts.type;
  const options = opts.option;
  if (MULTI_VALUED.includes(DataType)) {
    // "Required and non-empty for MultiSelectOne and MultiSelectMany."
    if (!options.length) throw new UsageError(`a ${DataType} field needs its options: give --option once per option`, C.optionsRequired);
    const blank = options.findIndex((o) => o.trim() === '');
    if (blank >= 0) throw new UsageError(`--option ${blank + 1} is empty`, C.optionsRequired);
  } else if (options.length) {
    // "Must be null or empty for Text, Number, Date, Country, USState (options of Country and USState are generated automatically)."
    throw new UsageError(`a ${DataType} field takes no --option${DataType === 'Country' || DataType === 'USState' ? ` (the service generates the options of ${DataType})` : ''}`, C.optionsNotAllowed);
  }
  return { FieldName, DataType, FieldOptions: options, VisibleInPreferenceCenter: opts.visible };
}
