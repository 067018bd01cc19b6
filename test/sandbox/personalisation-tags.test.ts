// Personalisation tags in a campaign's sender fields (codes 322-326): `[name]`
// or `[name,fallback=value]`; the subscriber's own data is reserved.
import { describe, expect, it } from 'vitest';
import { isReserved, tagsIn, withFallbacks } from '../../src/sandbox/personalisation-tags.js';

describe('tagsIn', () => {
  it('finds every tag, names lower-cased and trimmed, fallbacks trimmed', () => {
    expect(tagsIn('Hi [FirstName], from [Company , fallback= Example Ltd ] and [x,fallback=]')).toEqual([
      { name: 'firstname', fallback: undefined },
      { name: 'company', fallback: 'Example Ltd' },
      { name: 'x', fallback: '' },
    ]);
  });

  it('gives the same answer on every call (no state carried between calls)', () => {
    const value = '[a] [b]';
    expect(tagsIn(value)).toEqual(tagsIn(value));
    expect(tagsIn('no tags [] here')).toEqual([]);
  });
});

describe('isReserved', () => {
  it("reserves the subscriber's own data only", () => {
    expect(['firstname', 'lastname', 'fullname', 'email'].map((name) => isReserved({ name, fallback: undefined }))).toEqual([true, true, true, true]);
    expect(isReserved({ name: 'company', fallback: 'x' })).toBe(false);
  });
});

describe('withFallbacks', () => {
  it('replaces each tag by its fallback, or nothing', () => {
    expect(withFallbacks('news@[domain,fallback=example.com]')).toBe('news@example.com');
    expect(withFallbacks('[team] News')).toBe(' News');
  });
});
