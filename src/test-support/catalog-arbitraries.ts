import fc from 'fast-check';
import {
  type CatalogMedia,
  type CatalogProduct,
  catalogColour,
} from '../modules/catalog-versions/catalog-file.js';
import type { ColourRecord } from '../modules/products/products.repository.js';
import { colourSlug, tidyColourName } from '../shared/colours.js';
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

/** A colour's name as the product keeps it: tidy, a colour (a slug of its own), at most 50 characters. */
const colourName = fieldText({ min: 1, max: 50, graphemes: 8 }).filter(
  (s) => tidyColourName(s) === s && colourSlug(s) !== '',
);

const skuSuffix = fc.oneof(
  fc.stringMatching(/^-[A-Z0-9]{1,6}$/),
  fieldText({ min: 1, max: 20, graphemes: 6 }),
);
const hex = fc.stringMatching(/^#[0-9a-f]{6}$/);
const colourPrice = fc.nat(100_000);

/** Measurements for some of `sizes`, one unique label per cell. */
function sizeChart(
  sizes: readonly string[],
  cells: ReadonlyArray<readonly [string, string]>,
): Record<string, Record<string, string>> {
  const chart: Record<string, Record<string, string>> = {};
  for (const [i, size] of sizes.slice(0, 2).entries()) {
    const row = Object.fromEntries(cells.map(([label, value], j) => [`${label}${i}${j}`, value]));
    if (Object.keys(row).length > 0) chart[size] = row;
  }
  return chart;
}
const chartCells = fc.array(
  fc.tuple(fieldText({ min: 1, max: 38, graphemes: 6 }), fieldText({ min: 1, max: 40, graphemes: 6 })),
  { maxLength: 3 },
);

/** A colour's own chart is the exception (decision 0036): rarely, and small. */
const colourChartCells = chartCells.map((cells) => cells.slice(0, 2));

/** Counts for some of `sizes`. */
const countsOf = (sizes: readonly string[]) =>
  fc
    .subarray([...sizes])
    .chain((picked) => fc.tuple(...picked.map((size) => fc.nat(1000).map((n) => [size, n] as const))))
    .map((pairs) => Object.fromEntries(pairs));

/**
 * A product's colours as the file writes them (plain names when they have no details, mappings otherwise),
 * naming some of its own photos, and stock per colour × size for some of them.
 */
function coloursFor(p: {
  currency: string;
  sizes: string[];
  images: string[];
  media: CatalogMedia[];
}): fc.Arbitrary<Pick<CatalogProduct, 'colors' | 'stock' | 'colourStock'>> {
  const photos = [...new Set([...p.media.map((m) => m.url), ...p.images])];
  const colour = (name: string): fc.Arbitrary<ColourRecord> =>
    fc
      .record({
        hex: fc.option(hex, { nil: null }),
        skuSuffix: fc.option(skuSuffix, { nil: null }),
        priceMinor: fc.option(colourPrice, { nil: null }),
        images: fc.shuffledSubarray(photos),
        // A chart of its own is the exception (decision 0036): rarely, and small.
        cells: fc.option(colourChartCells, { nil: null, freq: 3 }),
      })
      .map(({ priceMinor, cells, ...c }) => {
        const chart = cells ? sizeChart(p.sizes, cells) : {};
        return {
          name,
          ...c,
          price: priceMinor === null ? '' : minorToMajorString(priceMinor, p.currency),
          sizeDetail: Object.keys(chart).length > 0 ? chart : null,
        };
      });
  return fc
    .uniqueArray(colourName, { maxLength: 4, selector: colourSlug })
    .chain((names) =>
      fc.record({
        colours: fc.tuple(...names.map(colour)),
        stock: countsOf(p.sizes),
        colourStock: fc.tuple(
          ...names.map((name) => countsOf(p.sizes).map((counts) => [name, counts] as const)),
        ),
      }),
    )
    .map(({ colours, stock, colourStock }) => {
      const perColour = Object.fromEntries(
        colourStock.filter(([, counts]) => Object.keys(counts).length > 0),
      );
      return {
        colors: colours.map(catalogColour),
        ...(Object.keys(stock).length > 0 ? { stock } : {}),
        ...(Object.keys(perColour).length > 0 ? { colourStock: perColour } : {}),
      };
    });
}

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
    tags: chips(30, 50),
    cells: chartCells,
    imageFolder: fc.oneof(fc.constant(''), fc.constant('/media/images/product-catalog/p')),
    images: fc.array(mediaUrl, { maxLength: 2 }),
    stripePaymentLink: httpUrl,
    productLink: httpUrl,
    media: fc.array(validCatalogMedia, { maxLength: 3 }),
  })
  .chain(({ priceMinor, cells, ...p }) =>
    coloursFor(p).map(({ colors, ...stock }) => ({
      ...p,
      price: minorToMajorString(priceMinor, p.currency),
      // Measurements only for the product's own sizes, one unique label per cell.
      sizeDetail: sizeChart(p.sizes, cells),
      colors,
      ...stock,
    })),
  );

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
