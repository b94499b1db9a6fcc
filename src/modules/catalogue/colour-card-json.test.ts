import { describe, expect, it } from 'vitest';
import { keepJson, toJsonBuffer } from '../../core/prebuilt-json.js';
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
    { name: 'Mint', hex: '#9cd2bb', image: null },
    { name: 'Teal', hex: '#1b7174', image: null, priceMinor: 9000, soldOutSizes: ['S', 'M', 'L'] },
    { name: 'Maroon', hex: '#6b1a2b', image: null, soldOutSizes: ['M'] },
  ],
  ...over,
});

/** The bytes a listing sends for a value, read back. */
const sent = (value: unknown): unknown => JSON.parse(toJsonBuffer(value).toString('utf8'));

describe('a colour version of a kept card', () => {
  it('sends exactly its own fields: the colour, its price, its sold-out sizes, the card’s other fields', () => {
    const kept = keepJson(card({ soldOutSizes: ['M'] }));
    for (const key of ['teal', 'maroon', 'mint']) {
      const version = colourCard(kept, [key]);
      expect(sent(version)).toEqual(JSON.parse(JSON.stringify(version)));
      expect(sent([version, kept])).toEqual([
        JSON.parse(JSON.stringify(version)),
        JSON.parse(JSON.stringify(kept)),
      ]);
    }
    const maroon = colourCard(kept, ['maroon']);
    expect(maroon).toMatchObject({ colour: 'Maroon', priceMinor: 8500, soldOutSizes: ['M'], soldOut: false });
    // Teal has nothing left: a Teal filter shows the first of its colours that has (none other asked): Teal.
    expect(colourCard(kept, ['teal'])).toMatchObject({ colour: 'Teal', priceMinor: 9000, soldOut: true });
    // Mint sells everything: no sold-out sizes of the plain card's are carried over.
    const mint = colourCard(kept, ['mint']);
    expect(mint.soldOutSizes).toBeUndefined();
    expect(sent(mint)).not.toHaveProperty('soldOutSizes');
    // Asked again, the same version (kept with its JSON).
    expect(colourCard(kept, ['mint'])).toBe(mint);
  });

  it('is right for a card that is not kept too (marked for one listing)', () => {
    const marked = card();
    const version = colourCard(marked, ['maroon']);
    expect(sent(version)).toEqual(JSON.parse(JSON.stringify(version)));
  });
});
