// createCustomField (src/api/custom-fields.ts) against the sandbox.
import { describe, expect, it } from 'vitest';
import { createCustomField } from '../../src/api/custom-fields.js';
import { ApiError } from '../../src/core/errors.js';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { useApiSandbox } from '../helpers/api-client.js';

const api = useApiSandbox();
const definition = { FieldName: 'Shoe size', DataType: 'Number' as const, FieldOptions: [], VisibleInPreferenceCenter: true };

describe('createCustomField', () => {
  it('posts the definition to the list and returns the new key', async () => {
    const { answer, requests } = await api.sent((c) => createCustomField(c, SEED_LIST_IDS.customers, definition));
    expect(requests).toEqual([{ method: 'POST', path: `/email/lists/${SEED_LIST_IDS.customers}/customfields`, query: {}, body: definition, status: 201 }]);
    expect(answer).toBe('[Shoesize]');
  });

  it('is never repeated, and a refusal is the service error with its code', async () => {
    api.sandbox.failNext({ status: 500 });
    expect((await api.sent((c) => createCustomField(c, SEED_LIST_IDS.customers, { ...definition, FieldName: 'Other' }))).requests).toHaveLength(1);
    const again = await api.sent((c) => createCustomField(c, SEED_LIST_IDS.customers, definition));
    expect(again.error).toBeInstanceOf(ApiError);
    expect((again.error as ApiError).code).toBe(255);
  });
});
