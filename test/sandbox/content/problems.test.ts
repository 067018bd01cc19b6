// ProblemList (src/sandbox/content/problems.ts): problems in the order found,
// each code once, so a route answers with the first found.
import { describe, expect, it } from 'vitest';
import { ProblemList } from '../../../src/sandbox/content/problems.js';

describe('ProblemList', () => {
  it('keeps the order found and the first message of each code', () => {
    const list = new ProblemList();
    list.add(4302, 'first 4302');
    list.add(4201, 'flash');
    list.add(4302, 'second 4302');
    list.addAll([{ code: 4201, message: 'again' }, { code: 4203, message: 'java' }]);
    expect(list.items).toEqual([
      { code: 4302, message: 'first 4302' },
      { code: 4201, message: 'flash' },
      { code: 4203, message: 'java' },
    ]);
  });
});
