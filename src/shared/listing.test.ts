import { describe, expect, it } from 'vitest';
import { listingTitle, parseView } from './listing.js';

const title = (search: string) => listingTitle(parseView(search));

describe('what a listing lists, for its title and heading', () => {
  it('is nothing for the whole catalogue, whatever its sort, page or stray parameters', () => {
    expect(title('')).toBeNull();
    expect(title('?sort=price-asc&page=3&utm_source=mail')).toBeNull();
    // One letter is not searched (decision 0024): the listing is still the whole catalogue.
    expect(title('?q=l')).toBeNull();
    expect(title('?q=%20%20')).toBeNull();
  });

  it('names the search, then the tags, makers, colours, sizes, price and stock', () => {
    expect(title('?q=silk')).toBe('Search: silk');
    expect(title('?tag=Lawn&size=M')).toBe('Lawn · size M');
    expect(title('?size=M')).toBe('Size M');
    expect(title('?instock=1')).toBe('In stock');
    expect(
      title(
        '?q=eid++kurta&brand=Noor+Mahal&color=Mint&color=Ivory&tag=Lawn&size=S&min=20&max=124.5&instock=1',
      ),
    ).toBe('Search: eid kurta · Lawn · Noor Mahal · colour Mint or Ivory · size S · $20–$124.50 · in stock');
    expect(title('?min=20')).toBe('From $20');
    expect(title('?max=50')).toBe('Up to $50');
  });

  it('keeps long choices short: three values of a group, then a count; a long search clipped', () => {
    expect(title('?size=XS&size=S&size=M&size=L&size=XL')).toBe('Size XS, S, M or 2 more');
    expect(title('?tag=Lawn&tag=Silk')).toBe('Lawn or Silk');
    const long = title(`?q=${'a'.repeat(200)}`) ?? '';
    expect(long).toBe(`Search: ${'a'.repeat(59)}…`);
  });

  it('is plain text as typed: escaping is left to whoever shows it', () => {
    expect(title('?q=%3C%2Ftitle%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E')).toBe(
      'Search: </title><script>alert(1)</script>',
    );
  });
});
