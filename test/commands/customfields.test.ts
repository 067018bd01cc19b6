import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { jsonError, useCommandSandbox } from '../helpers/sandbox.js';

const LIST = SEED_LIST_IDS.customers;

const s = useCommandSandbox();

describe('customfields create', () => {
  it('sends the definition to POST /email/lists/{listId}/customfields and prints the generated key', async () => {
    const r = await s.emailSent(['customfields', 'create', '--list', LIST, '--name', 'Favourite colour', '--type', 'Text']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('[Favouritecolour]\n');
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({ method: 'POST', path: `/email/lists/${LIST}/customfields`, status: 201 });
    expect(r.sent[0]!.body).toEqual({ FieldName: 'Favourite colour', DataType: 'Text', FieldOptions: [], VisibleInPreferenceCenter: false });
  });

  it('sends the options of a multi-valued field and --visible as VisibleInPreferenceCenter true', async () => {
    const r = await s.emailSent(['customfields', 'create', '--list', LIST, '--name', 'Hobbies', '--type', 'MultiSelectMany', '--option', 'Jazz', '--option', 'Blues', '--visible']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[0]!.body).toEqual({ FieldName: 'Hobbies', DataType: 'MultiSelectMany', FieldOptions: ['Jazz', 'Blues'], VisibleInPreferenceCenter: true });
    expect(s.sandbox.state().lists[LIST]!.CustomFields.find((f) => f.FieldName === 'Hobbies')?.FieldOptions).toEqual(['Jazz', 'Blues']);
  });

  it('accepts the data type in any case and sends the spelling of the spec', async () => {
    const r = await s.emailSent(['customfields', 'create', '--list', LIST, '--name', 'Joined', '--type', 'date']);
    expect(r.code, r.stderr).toBe(0);
    expect((r.sent[0]!.body as { DataType: string }).DataType).toBe('Date');
  });

  it('prints the service answer unchanged with --json', async () => {
    const r = await s.email(['customfields', 'create', '--list', LIST, '--name', 'Shoe size', '--type', 'Number', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toBe('[Shoesize]');
  });

  it('refuses an unknown data type with 259 and names the allowed ones', async () => {
    await s.expectRefused(['customfields', 'create', '--list', LIST, '--name', 'X', '--type', 'Boolean'], 259, /--type must be one of Text, Number, MultiSelectOne/);
  });

  it('refuses a missing data type with 259', async () => {
    await s.expectRefused(['customfields', 'create', '--list', LIST, '--name', 'X'], 259, /--type is required/);
  });

  it('refuses a multi-valued field without options with 257', async () => {
    await s.expectRefused(['customfields', 'create', '--list', LIST, '--name', 'X', '--type', 'MultiSelectOne'], 257, /needs its options/);
  });

  it('refuses an empty option of a multi-valued field with 257', async () => {
    await s.expectRefused(['customfields', 'create', '--list', LIST, '--name', 'X', '--type', 'MultiSelectOne', '--option', 'A', '--option', ' '], 257, /--option 2 is empty/);
  });

  it('refuses options for a field that takes none with 256', async () => {
    await s.expectRefused(['customfields', 'create', '--list', LIST, '--name', 'X', '--type', 'Text', '--option', 'A'], 256, /takes no --option/);
    await s.expectRefused(['customfields', 'create', '--list', LIST, '--name', 'X', '--type', 'Country', '--option', 'France'], 256, /generates the options of Country/);
  });

  it('refuses an empty or missing name with 254', async () => {
    await s.expectRefused(['customfields', 'create', '--list', LIST, '--name', '  ', '--type', 'Text'], 254, /--name is required/);
    await s.expectRefused(['customfields', 'create', '--list', LIST, '--type', 'Text'], 254, /--name is required/);
  });

  it('refuses a list id that is not a UUID', async () => {
    await s.expectRefused(['customfields', 'create', '--list', 'newsletter', '--name', 'X', '--type', 'Text'], undefined, /--list must be a UUID/);
  });

  it('surfaces the service refusing a duplicate name with its code 255 (exit 1)', async () => {
    const r = await s.email(['customfields', 'create', '--list', LIST, '--name', 'CustomerID', '--type', 'Text']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 255: /);
    const j = await s.email(['customfields', 'create', '--list', LIST, '--name', 'CustomerID', '--type', 'Text', '--json']);
    expect(jsonError(j.stderr)).toMatchObject({ status: 400, code: 255 });
  });

  it('surfaces 404 for a list that does not exist', async () => {
    const r = await s.email(['customfields', 'create', '--list', '99999999-9999-4999-8999-999999999999', '--name', 'X', '--type', 'Text']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 404/);
  });

  it('never repeats the creation after a 500', async () => {
    s.sandbox.failNext({ method: 'POST', path: /customfields/, status: 500 });
    const r = await s.emailSent(['customfields', 'create', '--list', LIST, '--name', 'Retry me', '--type', 'Text']);
    expect(r.code).toBe(1);
    expect(r.sent).toHaveLength(1);
  });
});
