import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyExponent, minorToMajorString } from '../../shared/money.js';
import { buildCatalogFile, type CatalogProduct, readCatalog } from './catalog-file.js';

/**
 * Prices in a catalogue file are YAML numbers with exactly their currency's decimals (89.99, 90.00, 1500,
 * 12.345), as the original format has them, and are read back from the scalar's own text: no amount of any
 * currency is rounded through a double on the way out or in.
 */

const CURRENCIES = ['usd', 'eur', 'pkr', 'jpy', 'krw', 'kwd', 'bhd'] as const;

const product = (id: string, priceMinor: number, currency: string): CatalogProduct => ({
  id,
  title: 'Kurta',
  description: 'Lawn',
  manufacturer: '',
  manufacturerUrl: '',
  sku: `SKU-${id}`,
  price: minorToMajorString(priceMinor, currency),
  currency,
  pageOrder: 1,
  sizes: ['M'],
  sizeDetail: {},
  colors: [],
  tags: [],
  imageFolder: '',
  images: [],
  stripePaymentLink: '',
  productLink: '',
  media: [],
});

const META = {
  format: 'storefront-catalog/1',
  exported_at: '2026-11-28T00:00:00.000Z',
  total_products: 1,
  store_version: '1.0.0',
};

const fileOf = (products: CatalogProduct[]) => buildCatalogFile(META, products).text;

/** The price lines of a file, as written. */
const priceLines = (text: string) => text.split('\n').filter((l) => /^\s+price:/.test(l));

describe('catalogue prices', () => {
  it('export then import gives the same minor units, written as a number with the currency decimals', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            currency: fc.constantFrom(...CURRENCIES),
            // Small amounts, round ones (90.00), and up to the largest safe integer (no double holds those).
            minor: fc.oneof(
              fc.nat(100_000),
              fc.nat(100_000).map((n) => n * 100),
              fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
            ),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        (prices) => {
          const products = prices.map((p, i) => product(`p${i}`, p.minor, p.currency));
          const text = fileOf(products);
          const lines = priceLines(text);
          expect(lines).toHaveLength(prices.length);
          prices.forEach((p, i) => {
            const exponent = currencyExponent(p.currency);
            const pattern =
              exponent === 0 ? /^ {4}price: \d+$/ : new RegExp(`^ {4}price: \\d+\\.\\d{${exponent}}$`);
            expect(lines[i]).toMatch(pattern);
            expect(lines[i]).toBe(`    price: ${minorToMajorString(p.minor, p.currency)}`);
          });
          const read = readCatalog(text, () => 'new');
          expect(read.invalid).toEqual([]);
          expect(read.items.map((item) => item.fields.priceMinor)).toEqual(prices.map((p) => p.minor));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes 90.00 as 90.00, not 90 or a quoted string', () => {
    const text = fileOf([product('a', 9000, 'usd'), product('b', 1500, 'jpy'), product('c', 12345, 'kwd')]);
    expect(priceLines(text)).toEqual(['    price: 90.00', '    price: 1500', '    price: 12.345']);
  });

  const readPrice = (price: string, currency: string) => {
    const read = readCatalog(
      `products:\n  - { id: p1, title: T, description: D, sku: S, currency: ${currency}, price: ${price} }\n`,
      () => 'new',
    );
    return read.items[0]?.fields.priceMinor ?? read.invalid[0]?.reason;
  };

  it('reads numbers and strings exactly, beyond what a double holds', () => {
    expect(readPrice('89.99', 'usd')).toBe(8999);
    expect(readPrice("'89.99'", 'usd')).toBe(8999);
    expect(readPrice('90.0', 'usd')).toBe(9000);
    expect(readPrice('0.29', 'usd')).toBe(29);
    expect(readPrice('.5', 'usd')).toBe(50);
    // No double is either: read as one, they came back 90071992547409.88 and 9007199254740.988.
    expect(readPrice('90071992547409.87', 'usd')).toBe(9007199254740987);
    expect(readPrice('9007199254740.989', 'kwd')).toBe(9007199254740989);
    expect(readPrice('1500', 'jpy')).toBe(1500);
    expect(readPrice('1500.0', 'jpy')).toBe(1500);
  });

  it('refuses more decimals than the currency has, saying so', () => {
    expect(readPrice('89.999', 'usd')).toBe('price: USD prices have at most 2 decimals');
    expect(readPrice("'1.2345'", 'kwd')).toBe('price: KWD prices have at most 3 decimals');
    expect(readPrice('1500.5', 'jpy')).toBe('price: JPY prices are whole numbers: no decimals');
    expect(readPrice('1e3', 'usd')).toBe('price: Enter a price of 0 or more, like 49.99');
    expect(readPrice('-1.00', 'usd')).toBe('price: Enter a price of 0 or more, like 49.99');
  });
});
