import type { ProductCard } from '@shared/catalogue';
import { describe, expect, it } from 'vitest';
import { cardHref, cardPurchase } from './card-colour';

const card = (extra: Partial<ProductCard> = {}): ProductCard => ({
  id: 'kurta',
  title: 'Lawn Kurta',
  description: '',
  manufacturer: '',
  priceMinor: 5000,
  currency: 'usd',
  sizes: ['S', 'M'],
  image: null,
  hasPaymentLink: false,
  soldOut: false,
  ...extra,
});

describe("a card's colour", () => {
  it('leaves a product without colours as it was', () => {
    expect(cardPurchase(card({ soldOutSizes: ['S'] }))).toEqual({
      colour: null,
      priceMinor: 5000,
      soldOutSizes: ['S'],
      soldOutInColour: [],
    });
    expect(cardHref('/product/kurta', card())).toBe('/product/kurta');
  });

  it('buys the colour it was found by, at the price and with the sold-out sizes the server gave it', () => {
    const teal = { name: 'Sea Green', hex: '#1f7a6d', image: null, priceMinor: 6500, soldOutSizes: ['M'] };
    const found = card({ colour: 'Sea Green', priceMinor: 6500, soldOutSizes: ['M'], colours: [teal] });
    expect(cardPurchase(found)).toEqual({
      colour: teal,
      priceMinor: 6500,
      soldOutSizes: ['M'],
      soldOutInColour: [],
    });
    expect(cardHref('/product/kurta', found)).toBe('/product/kurta?colour=sea-green');
  });

  it('on a plain card, buys the first colour with a size left, at its price, never its sold-out sizes', () => {
    const gone = { name: 'Teal', hex: null, image: null, soldOutSizes: ['S', 'M'] };
    const maroon = { name: 'Maroon', hex: null, image: null, priceMinor: 5500, soldOutSizes: ['M'] };
    const plain = card({ colours: [gone, maroon, { name: 'Mint', hex: null, image: null }] });
    expect(cardPurchase(plain)).toEqual({
      colour: maroon,
      priceMinor: 5500,
      soldOutSizes: ['M'],
      soldOutInColour: ['M'],
    });
    // M sold out in every colour: the card's own mark, not the colour's.
    expect(cardPurchase({ ...plain, soldOutSizes: ['M'] }).soldOutInColour).toEqual([]);
    expect(cardHref('/product/kurta', plain)).toBe('/product/kurta');
  });
});
