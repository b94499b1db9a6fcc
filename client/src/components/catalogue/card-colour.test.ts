import type { ProductCard } from '@shared/catalogue';
import { describe, expect, it } from 'vitest';
import { cardHref } from './card-colour';

const card = (extra: Partial<ProductCard> = {}): Pick<ProductCard, 'colour'> => extra;

describe('where a card leads', () => {
  it('opens the product, in the colour the card was found by', () => {
    expect(cardHref('/product/kurta', card())).toBe('/product/kurta');
    expect(cardHref('/product/kurta', card({ colour: 'Sea Green' }))).toBe('/product/kurta?colour=sea-green');
  });
});
