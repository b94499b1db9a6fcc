import { LISTING_PARAMS } from '@shared/ssr-contract';
import { describe, expect, it } from 'vitest';
import { parseView, serializeView } from './catalogue-url';

describe('catalogue URL state', () => {
  it('round-trips a full view through the query string', () => {
    const search =
      '?q=lawn+kurta&brand=Noor+Mahal&size=S&size=M&color=Mint&tag=eid&min=50&max=124.5&instock=1&sale=1&sort=price-asc&page=3';
    const view = parseView(search);
    expect(view).toEqual({
      q: 'lawn kurta',
      manufacturers: ['Noor Mahal'],
      sizes: ['S', 'M'],
      colors: ['Mint'],
      tags: ['eid'],
      priceMin: 5000,
      priceMax: 12450,
      inStock: true,
      onSale: true,
      sort: 'price-asc',
      page: 3,
    });
    expect(parseView(serializeView(view))).toEqual(view);
  });

  it('ignores what it cannot understand', () => {
    const view = parseView('?sort=cheapest&page=-2&min=abc&max=1.999&size=&size=%20&instock=yes');
    expect(view.sort).toBeUndefined();
    expect(view.page).toBe(1);
    expect(view.priceMin).toBeUndefined();
    expect(view.priceMax).toBeUndefined();
    expect(view.sizes).toEqual([]);
    expect(view.inStock).toBe(false);
    expect(serializeView(parseView(''))).toBe('');
  });
});

describe('catalogue URL and the server page cache', () => {
  it('writes only parameters the server keys rendered pages by', () => {
    const view = {
      q: 'silk kurta',
      manufacturers: ['Noor Mahal'],
      sizes: ['M', 'L'],
      colors: ['Mint'],
      tags: ['eid'],
      priceMin: 1000,
      priceMax: 9000,
      inStock: true,
      onSale: true,
      sort: 'newest' as const,
      page: 3,
    };
    const written = new URLSearchParams(serializeView(view).slice(1));
    expect([...new Set(written.keys())].sort()).toEqual([...LISTING_PARAMS].sort());
  });
});
