import { describe, expect, it } from 'vitest';
import { keepJson, toJsonBuffer } from '../../core/prebuilt-json.js';
import { cardView } from '../../shared/card-view.js';
import type { ProductCard } from '../../shared/catalogue.js';
import { colourCard } from './card-cache.js';

const card = (over: Partial<ProductCard> = {}): ProductCard => ({
  id: 'k1',
  title: 'Lawn Kurta — “Jaal”',
  description: 'A kurta in three colours, ünïcödé and "quotes".',
  manufacturer: 'Zara Atelier',
  priceMinor: 8500,
  currency: 'usd',
  sizes: ['S', 'M', 'L'],
  image: { url: '/media/k1.jpg', alt: 'Front' },
  hasPaymentLink: false,
  soldOut: false,
  colours: [
    { name: 'Mint', hex: '#9cd2bb' },
    { name: 'Teal', hex: '#1b7174', priceMinor: 9000, soldOutSizes: ['S', 'M', 'L'] },
    { name: 'Maroon', hex: '#6b1a2b', soldOutSizes: ['M'] },
  ],
  ...over,
});

/** The bytes a listing sends for a value, read back. */
const sent = (value: unknown): unknown => JSON.parse(toJsonBuffer(value).toString('utf8'));

describe('a colour version of a kept card', () => {
  it('sends the card’s JSON and the colour it was found by, whose price and sold-out sizes the card has', () => {
    const kept = keepJson(card({ soldOutSizes: ['M'] }));
    for (const key of ['teal', 'maroon', 'mint']) {
      const version = colourCard(kept, [key]);
      expect(sent(version)).toEqual(JSON.parse(JSON.stringify(version)));
      expect(sent([version, kept])).toEqual([
        JSON.parse(JSON.stringify(version)),
        JSON.parse(JSON.stringify(kept)),
      ]);
      // The card's bytes, but their closing brace, are what the version's start with.
      const plain = toJsonBuffer(kept);
      expect(
        toJsonBuffer(version)
          .subarray(0, plain.length - 1)
          .equals(plain.subarray(0, -1)),
      ).toBe(true);
    }
    const maroon = sent(colourCard(kept, ['maroon'])) as ProductCard;
    expect(maroon.colour).toBe('Maroon');
    expect(cardView(maroon)).toMatchObject({ priceMinor: 8500, soldOutSizes: ['M'], soldOut: false });
    // Teal has nothing left: a Teal filter shows the first of its colours that has (none other asked): Teal.
    const teal = sent(colourCard(kept, ['teal'])) as ProductCard;
    expect(teal.colour).toBe('Teal');
    expect(cardView(teal)).toMatchObject({ priceMinor: 9000, soldOut: true });
    // Teal or Maroon: Maroon, which has something.
    expect(colourCard(kept, ['teal', 'maroon']).colour).toBe('Maroon');
    // A filter of colours the card has none of: the card itself.
    expect(colourCard(kept, ['navy'])).toBe(kept);
    // Asked again, the same version (kept with its JSON).
    const mint = colourCard(kept, ['mint']);
    expect(colourCard(kept, ['mint'])).toBe(mint);
    expect(Object.isFrozen(mint)).toBe(true);
  });

  it('is right for a card that is not kept too (marked for one listing)', () => {
    const marked = card();
    const version = colourCard(marked, ['maroon']);
    expect(version.colour).toBe('Maroon');
    expect(sent(version)).toEqual(JSON.parse(JSON.stringify(version)));
  });
});
