import { describe, expect, it } from 'vitest';
import { planMapping } from '../../src/import/mapping.js';
import { RowBuilder } from '../../src/import/rows.js';

describe('planMapping: the name', () => {
  it('joins First Name then Last Name whatever their order in the file (CLI.md: First Name + Last Name)', () => {
    const plan = planMapping(['email', 'Last Name', 'First Name', 'consent'], [], 'n.csv');
    expect(plan.nameColumns).toEqual([2, 1]);
    const entry = new RowBuilder(plan, {}).build(['ann@example.org', 'Lovelace', 'Ada', 'yes']);
    expect(entry).toMatchObject({ Name: 'Ada Lovelace' });
  });

  it('keeps the file order for columns --map names Name', () => {
    const plan = planMapping(['email', 'B', 'A'], ['B=Name', 'A=Name'], 'n.csv');
    expect(plan.nameColumns).toEqual([1, 2]);
  });
});
