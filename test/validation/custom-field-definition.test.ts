// The custom field definition of `customfields create` (service-spec.md
// "Custom field definition"), with the service's codes 254, 256, 257.
import { describe, expect, it } from 'vitest';
import { customFieldFrom } from '../../src/validation/custom-field-definition.js';
import { refusal } from '../helpers/usage.js';

describe('customFieldFrom', () => {
  it('builds the request body, options as given', () => {
    expect(customFieldFrom({ name: 'Interests', type: 'MultiSelectMany', option: ['News', ' Events '], visible: true })).toEqual({
      FieldName: 'Interests',
      DataType: 'MultiSelectMany',
      FieldOptions: ['News', ' Events '],
      VisibleInPreferenceCenter: true,
    });
    expect(customFieldFrom({ name: 'Age', type: 'Number', option: [], visible: false })).toEqual({ FieldName: 'Age', DataType: 'Number', FieldOptions: [], VisibleInPreferenceCenter: false });
  });

  it('refuses a missing name with 254', () => {
    expect(refusal(() => customFieldFrom({ type: 'Text', option: [], visible: true }))?.code).toBe(254);
  });

  it('refuses a multi-valued field without options, or with a blank one, with 257', () => {
    expect(refusal(() => customFieldFrom({ name: 'X', type: 'MultiSelectOne', option: [], visible: true }))).toEqual({ code: 257, message: 'a MultiSelectOne field needs its options: give --option once per option' });
    expect(refusal(() => customFieldFrom({ name: 'X', type: 'MultiSelectMany', option: ['a', ' '], visible: true }))).toEqual({ code: 257, message: '--option 2 is empty' });
  });

  it('refuses options on a field that takes none with 256, saying why for Country and USState', () => {
    expect(refusal(() => customFieldFrom({ name: 'X', type: 'Text', option: ['a'], visible: true }))).toEqual({ code: 256, message: 'a Text field takes no --option' });
    expect(refusal(() => customFieldFrom({ name: 'X', type: 'Country', option: ['FR'], visible: true }))).toEqual({ code: 256, message: 'a Country field takes no --option (the service generates the options of Country)' });
  });
});
