import { describe, expect, it } from 'vitest';
import { sizeRank, sortSizes } from './sizes.js';

describe('the size order', () => {
  it('ranks a size by its trimmed, upper-cased spelling, as the checkout and the size facet match sizes', () => {
    expect(sizeRank(' M ')).toBe(sizeRank('M'));
    expect(sizeRank('xl')).toBe(sizeRank('XL'));
    expect(sortSizes(['XL', ' M ', 'xs'])).toEqual(['xs', ' M ', 'XL']);
  });

  it('puts sizes outside the list after it, in the order they came', () => {
    expect(sortSizes(['42', 'L', '38', 'S'])).toEqual(['S', 'L', '42', '38']);
  });
});
