import { describe, expect, it } from 'vitest';
import { catalogueFilterInput } from '../../shared/storefront-input.js';
import { assembleFacets } from './catalogue-search.repository.js';

describe('the size facet', () => {
  // The facet once ranked sizes untrimmed, so ' M ' fell after XL while product pages (sortSizes) put it first.
  it('lists sizes in the product pages’ order, ranking " M " as M, and others after them by name', () => {
    const sizes = [' M ', 'XL', 'b', 'a', 'xs'].map((value) => ({
      key: value.trim().toUpperCase(),
      value,
      count: 1,
    }));
    const facets = assembleFacets(
      { counted: new Map([['size', sizes]]), price: null, onSale: 0 },
      catalogueFilterInput.parse({}),
    );
    expect(facets.size.map((o) => o.value)).toEqual(['xs', ' M ', 'XL', 'a', 'b']);
  });
});
