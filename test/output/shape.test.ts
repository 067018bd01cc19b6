// --fields on records (src/output/shape.ts): names from the record schema,
// dotted paths, and what a dotted name over an array gives.
import { describe, expect, it } from 'vitest';
import { fieldNames, matchFields, project, shapeData } from '../../src/output/shape.js';
import { subscriberHistory } from '../../src/schemas/subscribers.js';
import { smartEmailDetails } from '../../src/schemas/transactional.js';

describe('field names from a record schema', () => {
  it('lists nested objects and arrays of objects as dotted names', () => {
    expect(fieldNames(subscriberHistory)).toEqual(['ID', 'Type', 'Name', 'Actions', 'Actions.Event', 'Actions.Date', 'Actions.IPAddress', 'Actions.Detail']);
    expect(fieldNames(smartEmailDetails)).toContain('Properties.Content.EmailVariables');
  });

  it('matches without regard to case, refusing an unknown name with the known ones', () => {
    expect(matchFields(['actions.event', 'NAME'], fieldNames(subscriberHistory))).toEqual(['Actions.Event', 'Name']);
    expect(() => matchFields(['Nope'], ['A', 'B'])).toThrow('--fields: unknown field "Nope"; the fields are A, B');
  });

  it('a number step indexes an array and is kept, the names around it spelled as the schema does', () => {
    expect(matchFields(['rulegroups.0.rules', 'actions.1'], ['RuleGroups', 'RuleGroups.Rules', 'Actions'])).toEqual(['RuleGroups.0.Rules', 'Actions.1']);
    expect(() => matchFields(['0'], ['A'])).toThrow('unknown field "0"');
  });
});

describe('projection', () => {
  const history = [{ ID: 'c1', Name: 'Welcome', Actions: [{ Event: 'Open', Date: 'd1' }, { Event: 'Click', Date: 'd2' }] }, { ID: 'c2', Name: 'Later', Actions: [] }];

  it('a dotted name over an array collects the field of every element', () => {
    expect(project(history[0], ['Name', 'Actions.Event'])).toEqual({ Name: 'Welcome', 'Actions.Event': ['Open', 'Click'] });
    expect(project(history[1], ['Name', 'Actions.Event'])).toEqual({ Name: 'Later', 'Actions.Event': [] });
  });

  it('a missing field is null, so every record has the same keys', () => {
    expect(project({ A: 1 }, ['B', 'A'])).toEqual({ B: null, A: 1 });
  });

  it('--limit keeps the first n of a list or of an envelope’s Results', () => {
    expect(shapeData([1, 2, 3], { limit: 2 })).toEqual([1, 2]);
    expect(shapeData({ Results: [1, 2, 3], PageNumber: 1 }, { limit: 1 })).toEqual({ Results: [1], PageNumber: 1 });
  });
});
