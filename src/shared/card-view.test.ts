import { describe, expect, it } from 'vitest';
import { cardView } from './card-view.js';
import type { ProductCard } from './catalogue.js';

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
    expect(cardView(card({ soldOutSizes: ['S'] }))).toEqual({
      colour: null,
      priceMinor: 5000,
      sale: null,
      soldOutSizes: ['S'],
      soldOutInColour: [],
      soldOut: false,
      image: null,
    });
  });

  it('buys the colour it was found by, at its price, with its photo and its sold-out sizes', () => {
    const teal = { name: 'Sea Green', hex: '#1f7a6d', priceMinor: 6500, soldOutSizes: ['M'] };
    const mint = { name: 'Mint' };
    const photo = { url: '/media/teal.jpg', alt: 'Sea green' };
    const found = card({ colour: 'Sea Green', colourImage: photo, colours: [mint, teal] });
    expect(cardView(found)).toEqual({
      colour: teal,
      priceMinor: 6500,
      sale: null,
      soldOutSizes: ['M'],
      soldOutInColour: ['M'],
      soldOut: false,
      image: photo,
    });
    // Found by a colour with nothing left: sold out, though the product's other colours are not.
    const gone = { ...teal, soldOutSizes: ['S', 'M'] };
    expect(cardView(card({ colour: 'Sea Green', colours: [mint, gone] }))).toMatchObject({
      colour: gone,
      soldOut: true,
      image: null,
    });
  });

  it('on a plain card, buys the first colour with a size left, at its price, never its sold-out sizes', () => {
    const gone = { name: 'Teal', soldOutSizes: ['S', 'M'] };
    const maroon = { name: 'Maroon', priceMinor: 5500, soldOutSizes: ['M'] };
    const plain = card({ colours: [gone, maroon, { name: 'Mint' }] });
    expect(cardView(plain)).toEqual({
      colour: maroon,
      priceMinor: 5500,
      sale: null,
      soldOutSizes: ['M'],
      soldOutInColour: ['M'],
      soldOut: false,
      image: null,
    });
    // M sold out in every colour: the card's own mark, not the colour's.
    expect(cardView({ ...plain, soldOutSizes: ['M'] }).soldOutInColour).toEqual([]);
  });
});
