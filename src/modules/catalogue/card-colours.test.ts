import { describe, expect, it } from 'vitest';
import { colourOptionsOf } from '../../db/json-columns.js';
import { type CardRow, toCard } from './catalogue.repository.js';

const row = (colourOptions: string): CardRow => ({
  id: 'p1',
  title: 'Kurta',
  description: '',
  manufacturer: 'Maker',
  price_minor: 5000,
  currency: 'usd',
  sizes: '["S","M"]',
  colour_options: colourOptions,
  tags: '[]',
  image_url: null,
  image_alt: null,
  image_meta: null,
  has_payment_link: 0,
});

/** The swatches as the product's colour options say them (what a card read made before it read only these). */
function swatchesOf(text: string) {
  return colourOptionsOf(text).map((c) => ({
    name: c.name,
    ...(c.hex !== null ? { hex: c.hex } : {}),
    ...(c.images[0] !== undefined ? { image: c.images[0] } : {}),
    ...(c.priceMinor !== null ? { priceMinor: c.priceMinor } : {}),
  }));
}

describe("a card's swatches", () => {
  it('keep of each colour what its options keep, hand-edited oddities left out alike', () => {
    const texts = [
      '[]',
      '',
      'not json',
      '{"name":"Teal"}',
      '[{"name":"Teal","hex":"#1f7a6d","skuSuffix":"-T","priceMinor":6500,"images":["/a.jpg","/b.jpg"],"sizeDetail":null}]',
      '[{"name":"Mint","hex":null,"images":[]},{"name":"Rose","images":[7,"/r.jpg"],"priceMinor":12.5}]',
      '[null,7,"Teal",{"hex":"#000"},{"name":3},{"name":"Ok","images":"x","priceMinor":-1}]',
      '[{"name":"Big","priceMinor":9007199254740993}]',
    ];
    for (const text of texts) {
      const expected = swatchesOf(text);
      const card = toCard(row(text));
      if (expected.length === 0) expect(card).not.toHaveProperty('colours');
      else expect(card.colours).toEqual(expected);
      // In the same key order: the card's JSON is what is kept and sent.
      expect(JSON.stringify(card.colours ?? [])).toBe(JSON.stringify(expected));
    }
  });
});
