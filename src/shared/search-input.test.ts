import { describe, expect, it } from 'vitest';
import { tooShortToSearch } from './search-input.js';

describe('tooShortToSearch', () => {
  it('is true only when there are words and none has two characters', () => {
    expect(tooShortToSearch('k')).toBe(true);
    expect(tooShortToSearch(' e a ')).toBe(true);
    expect(tooShortToSearch('k-u')).toBe(true);
    expect(tooShortToSearch('')).toBe(false);
    expect(tooShortToSearch('  -- ')).toBe(false);
    expect(tooShortToSearch('ku')).toBe(false);
    expect(tooShortToSearch('a kurta')).toBe(false);
    expect(tooShortToSearch('丝绸')).toBe(false);
  });
});
