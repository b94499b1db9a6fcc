import fc from 'fast-check';
import type { CatalogMedia, CatalogProduct } from '../modules/catalog-versions/catalog-file.js';
import { minorToMajorString } from '../shared/money.js';
import { isStorableText, skuKey } from '../shared/product-input.js';

/**
 * fast-check generators of valid catalogue products (what the product form and the importer accept), for the
 * property tests of the importer and the product schema. Text mixes printable graphemes with any code point
 * (control characters, U+2028, BOM...), since YAML and SQLite both have opinions about those.
 */

export const CURRENCIES_FOR_TESTS = ['usd', 'jpy', 'kwd', 'eur', 'pkr'] as const;

/** Text a field keeps: trimmed, non-empty when required, storable, within its limit in UTF-16 units. */
export function fieldText(opts: { min: 0 | 1; max: number; graphemes?: number }): fc.Arbitrary<string> {
  const length = opts.graphemes ?? Math.min(opts.max, 30);
  return fc
    .oneof(
      fc.string({ unit: 'grapheme', minLength: opts.min, maxLength: length }),
      fc.string({ unit: 'binary', minLength: opts.min, maxLength: length }),
    )
    .map((s) => s.trim())
    .filter((s) => s.length >= opts.min && s.length <= opts.max && isStorableText(s));
}

/** Chip lists as the form commits them: trimmed, non-empty, unique ignoring case. */
function chips(maxItems: number, maxLength: number): fc.Arbitrary<string[]> {
  return fc.uniqueArray(fieldText({ min: 1, max: maxLength, graphemes: 8 }), {
    maxLength: maxItems,
    selector: (s) => s.toLowerCase(),
  });
}

const httpUrl = fc.oneof(
  fc.constant(''),
  fc.constantFrom('https://maker.example/about', 'http://shop.example/p?id=1&x=%20'),
  fc.webUrl({ validSchemes: ['https'] }).filter((u) => /^https?:\/\/[^\s]+$/i.test(u) && u.length <= 2048),
);

const mediaUrl = fc.oneof(
  fc.constantFrom('https://img.example.com/a.jpg', '/media/demo/kurta-1.webp'),
  fc.stringMatching(/^[a-z0-9-]{1,20}$/).map((s) => `/media/images/${s}.jpg`),
);

const uploadKey = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,15}$/).map((s) => `media/uploads/${s}.webp`);

/** One valid media item; two of one product often share an order. */
export const validCatalogMedia: fc.Arbitrary<CatalogMedia> = fc
  .record({
    url: mediaUrl,
    fileName: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,30}\.(jpg|pdf|mp4|txt)$/).map((s) => s.trim()),
    type: fc.constantFrom('image' as const, 'pdf' as const, 'txt' as const, 'video' as const),
    altText: fc.option(fieldText({ min: 1, max: 500 }), { nil: null }),
    // Small on purpose: two items of one product often share an order.
    order: fc.nat(3),
    upload: fc.option(
      fc.record({
        storageKey: uploadKey,
        contentType: fc.option(fc.constantFrom('image/webp', 'image/jpeg'), { nil: null }),
        byteSize: fc.option(fc.nat(10_000_000), { nil: null }),
        width: fc.option(fc.integer({ min: 1, max: 4000 }), { nil: null }),
        height: fc.option(fc.integer({ min: 1, max: 4000 }), { nil: null }),
        variants: fc.array(
          fc.record({
            url: fc.stringMatching(/^[a-z0-9]{1,10}$/).map((s) => `/media/uploads/${s}-320.webp`),
            width: fc.integer({ min: 1, max: 1600 }),
            format: fc.constantFrom('webp' as const, 'avif' as const),
            storageKey: uploadKey,
          }),
          { maxLength: 2 },
        ),
      }),
      { nil: undefined },
    ),
  })
  .map(({ upload, ...m }) => (upload ? { ...m, upload } : m));

/** One valid product of our own export format. */
export const validCatalogProduct: fc.Arbitrary<CatalogProduct> = fc
  .record({
    id: fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/),
    title: fieldText({ min: 1, max: 200, graphemes: 20 }),
    description: fieldText({ min: 1, max: 5000, graphemes: 40 }),
    manufacturer: fieldText({ min: 0, max: 200 }),
    manufacturerUrl: httpUrl,
    sku: fieldText({ min: 1, max: 100 }),
    currency: fc.constantFrom(...CURRENCIES_FOR_TESTS),
    priceMinor: fc.oneof(fc.nat(100_000), fc.integer({ min: 0, max: 999_999_999_999 })),
    // Whole and decimal sort keys, up to the form's 4 decimal places.
    pageOrder: fc.oneof(
      fc.integer({ min: 0, max: 1_000_000 }),
      fc.integer({ min: 0, max: 1_000_000_000 * 10_000 }).map((n) => n / 10_000),
    ),
    sizes: chips(20, 20),
    colors: chips(20, 50),
    tags: chips(30, 50),
    cells: fc.array(
      fc.tuple(fieldText({ min: 1, max: 38, graphemes: 6 }), fieldText({ min: 1, max: 40, graphemes: 6 })),
      { maxLength: 3 },
    ),
    imageFolder: fc.oneof(fc.constant(''), fc.constant('/media/images/product-catalog/p')),
    images: fc.array(mediaUrl, { maxLength: 2 }),
    stripePaymentLink: httpUrl,
    productLink: httpUrl,
    media: fc.array(validCatalogMedia, { maxLength: 3 }),
  })
  .map(({ priceMinor, cells, ...p }) => {
    // Measurements only for the product's own sizes, one unique label per cell.
    const sizeDetail: Record<string, Record<string, string>> = {};
    for (const [i, size] of p.sizes.slice(0, 2).entries()) {
      const row = Object.fromEntries(cells.map(([label, value], j) => [`${label}${i}${j}`, value]));
      if (Object.keys(row).length > 0) sizeDetail[size] = row;
    }
    return { ...p, price: minorToMajorString(priceMinor, p.currency), sizeDetail };
  });

/**
 * A valid catalogue: products with distinct ids and distinct SKUs (as the unique index compares them, so not
 * 'A-1' and 'a-1'), which is what the store accepts whole (decision 0012).
 */
export function validCatalog(opts: { minLength: number; maxLength: number }): fc.Arbitrary<CatalogProduct[]> {
  return fc.uniqueArray(validCatalogProduct, {
    ...opts,
    comparator: (a, b) => a.id === b.id || skuKey(a.sku) === skuKey(b.sku),
  });
}
