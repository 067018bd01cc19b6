// Custom field definitions and values (service-spec.md "Custom field value"
// rules 1-4, "Custom field definition").
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../../src/sandbox/index.js';
import { useSandbox } from '../../helpers/sandbox.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;

const c = useSandbox();

const fields = (email: string) => c.sandbox.state().lists[NEWSLETTER].Subscribers[email].CustomFields;
const update = (email: string, CustomFields: unknown[]) =>
  c.call('PUT', `/email/subscribers/${NEWSLETTER}?email=${email}`, { EmailAddress: email, Name: 'N', CustomFields, ConsentToTrack: 'Yes' });
const importOne = (email: string, CustomFields: unknown[]) =>
  c.call('POST', `/email/subscribers/${NEWSLETTER}/import`, {
    Subscribers: [{ EmailAddress: email, Name: 'N', CustomFields, ConsentToTrack: 'Unchanged' }],
    Resubscribe: false,
    QueueSubscriptionBasedAutoResponders: false,
    RestartSubscriptionBasedAutoresponders: false,
  });

describe('create custom field', () => {
  it('answers 201 with the generated Key and adds the definition', async () => {
    const answer = await c.call('POST', `/email/lists/${NEWSLETTER}/customfields`, {
      FieldName: 'Favourite Colour',
      DataType: 'MultiSelectOne',
      FieldOptions: ['Red', 'Green'],
      VisibleInPreferenceCenter: false,
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toBe('[FavouriteColour]');
    expect(c.sandbox.state().lists[NEWSLETTER].CustomFields.at(-1)).toEqual({
      FieldName: 'Favourite Colour',
      Key: '[FavouriteColour]',
      DataType: 'MultiSelectOne',
      FieldOptions: ['Red', 'Green'],
      VisibleInPreferenceCenter: false,
    });
  });

  it('accepts every DataType, with null or empty options where none are taken', async () => {
    const types = ['Text', 'Number', 'Date', 'Country', 'USState'];
    for (const [i, DataType] of types.entries()) {
      const answer = await c.call('POST', `/email/lists/${SEED_LIST_IDS.customers}/customfields`, {
        FieldName: `F${i}`,
        DataType,
        FieldOptions: i % 2 ? null : [],
        VisibleInPreferenceCenter: true,
      });
      expect(answer.status, DataType).toBe(201);
    }
    const multi = await c.call('POST', `/email/lists/${SEED_LIST_IDS.customers}/customfields`, {
      FieldName: 'Many',
      DataType: 'MultiSelectMany',
      FieldOptions: ['a', 'b'],
      VisibleInPreferenceCenter: true,
    });
    expect(multi.status).toBe(201);
  });

  it('generates the options of a USState field', async () => {
    await c.call('POST', `/email/lists/${NEWSLETTER}/customfields`, { FieldName: 'Home State', DataType: 'USState', FieldOptions: null, VisibleInPreferenceCenter: true });
    const def = c.sandbox.state().lists[NEWSLETTER].CustomFields.find((f) => f.Key === '[HomeState]');
    expect(def?.FieldOptions).toContain('Ohio');
  });

  it('a new field can be used right away by add', async () => {
    await c.call('POST', `/email/lists/${NEWSLETTER}/customfields`, { FieldName: 'Shoe Size', DataType: 'Number', FieldOptions: [], VisibleInPreferenceCenter: true });
    await c.call('POST', `/email/subscribers/${NEWSLETTER}`, {
      EmailAddress: 'feet@example.com',
      Name: 'F',
      CustomFields: [{ Key: '[ShoeSize]', Value: '44' }],
      ConsentToTrack: 'Yes',
      Resubscribe: false,
    });
    expect(fields('feet@example.com')).toEqual({ '[ShoeSize]': ['44'] });
  });
});

describe('custom field values', () => {
  it('sets a MultiSelectMany field from several items with the same Key', async () => {
    await c.call('POST', `/email/subscribers/${NEWSLETTER}`, {
      EmailAddress: 'multi@example.com',
      Name: 'M',
      CustomFields: [
        { Key: 'Interests', Value: 'News' },
        { Key: 'Interests', Value: 'Offers' },
        { Key: 'interests', Value: 'offers' },
      ],
      ConsentToTrack: 'Yes',
      Resubscribe: false,
    });
    expect(fields('multi@example.com')['[Interests]']).toEqual(['News', 'Offers']);
  });

  it('replaces the previous MultiSelectMany selections on update', async () => {
    await update('ada@example.com', [{ Key: 'Interests', Value: 'Offers' }]);
    expect(fields('ada@example.com')['[Interests]']).toEqual(['Offers']);
  });

  it('Clear with a Value removes only that option of a MultiSelectMany field', async () => {
    await update('ada@example.com', [{ Key: 'Interests', Value: 'News', Clear: true }]);
    expect(fields('ada@example.com')['[Interests]']).toEqual(['Events']);
  });

  it('Clear with an empty Value clears all options of a MultiSelectMany field', async () => {
    await update('ada@example.com', [{ Key: 'Interests', Value: '', Clear: true }]);
    expect(fields('ada@example.com')['[Interests]']).toBeUndefined();
  });

  it('Clear clears a single-valued field', async () => {
    await update('ada@example.com', [{ Key: 'Company', Value: '', Clear: true }]);
    expect(fields('ada@example.com')['[Company]']).toBeUndefined();
    expect(fields('ada@example.com')['[Plan]']).toEqual(['Pro']);
  });

  it('Clear is accepted by import', async () => {
    await importOne('ada@example.com', [{ Key: 'Interests', Value: 'Events', Clear: true }]);
    expect(fields('ada@example.com')['[Interests]']).toEqual(['News']);
  });

  it('0000-00-00 clears a Date field on update, add and import', async () => {
    await update('ada@example.com', [{ Key: 'Birthday', Value: '0000-00-00' }]);
    expect(fields('ada@example.com')['[Birthday]']).toBeUndefined();

    await update('grace@example.com', [{ Key: 'Birthday', Value: '1906/12/09' }]);
    expect(fields('grace@example.com')['[Birthday]']).toEqual(['1906-12-09']);
    await c.call('POST', `/email/subscribers/${NEWSLETTER}`, {
      EmailAddress: 'grace@example.com',
      Name: 'Grace Hopper',
      CustomFields: [{ Key: 'Birthday', Value: '0000-00-00' }],
      ConsentToTrack: 'Yes',
      Resubscribe: false,
    });
    expect(fields('grace@example.com')['[Birthday]']).toBeUndefined();

    await update('alan@example.com', [{ Key: 'Birthday', Value: '1912-06-23' }]);
    await importOne('alan@example.com', [{ Key: 'Birthday', Value: '0000-00-00' }]);
    expect(fields('alan@example.com')['[Birthday]']).toBeUndefined();
  });

  it('leaves values unchanged when they are not supplied', async () => {
    const before = structuredClone(fields('ada@example.com'));
    await update('ada@example.com', []);
    await importOne('ada@example.com', []);
    expect(fields('ada@example.com')).toEqual(before);
  });

  it('treats an empty Value without Clear as not supplied', async () => {
    await update('ada@example.com', [{ Key: 'Company', Value: '' }]);
    expect(fields('ada@example.com')['[Company]']).toEqual(['Analytical Engines']);
  });

  it('ignores values that do not fit the field and keys the list does not have', async () => {
    await update('ada@example.com', [
      { Key: 'Age', Value: 'thirty-six' },
      { Key: 'Plan', Value: 'Platinum' },
      { Key: 'Birthday', Value: '10/12/1815' },
      { Key: 'State', Value: 'Narnia' },
      { Key: 'NoSuchField', Value: 'x' },
    ]);
    expect(fields('ada@example.com')).toMatchObject({ '[Age]': ['36'], '[Plan]': ['Pro'], '[Birthday]': ['1815-12-10'] });
    expect(fields('ada@example.com')['[State]']).toBeUndefined();
    expect(fields('ada@example.com')['[NoSuchField]']).toBeUndefined();
  });

  it('a date-time sent to a Date field is not stored, on add, update and import: the field keeps what it had, with no error', async () => {
    // service-spec.md rule 3: a Date field takes a year-first date; the add, update and import codes hold none for a value
    // that does not fit its field, so the value is ignored (a new subscriber has none; a stored one stays).
    for (const value of ['2024-01-01 10:00', '2018-08-27T15:06:27.713Z', '2018-02-12 10:54:27 UTC']) {
      const add = await c.call('POST', `/email/subscribers/${NEWSLETTER}`, {
        EmailAddress: 'new@example.com',
        Name: 'New',
        CustomFields: [{ Key: 'Birthday', Value: value }],
        ConsentToTrack: 'Yes',
        Resubscribe: false,
      });
      expect(add.status, value).toBe(201);
      expect(fields('new@example.com')['[Birthday]'], value).toBeUndefined();
      expect((await update('ada@example.com', [{ Key: 'Birthday', Value: value }])).status, value).toBe(200);
      const imported = await importOne('ada@example.com', [{ Key: 'Birthday', Value: value }]);
      expect(imported.status, value).toBe(200);
      expect(imported.body.FailureDetails, value).toEqual([]);
      expect(fields('ada@example.com')['[Birthday]'], value).toEqual(['1815-12-10']);
    }
  });

  it('stores options with their defined spelling and US states by name', async () => {
    await update('ada@example.com', [
      { Key: 'Plan', Value: 'enterprise' },
      { Key: 'State', Value: 'new york' },
      { Key: 'Age', Value: '37' },
    ]);
    expect(fields('ada@example.com')).toMatchObject({ '[Plan]': ['Enterprise'], '[State]': ['New York'], '[Age]': ['37'] });
  });
});
