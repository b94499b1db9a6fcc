import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colourOptionsOf, parseJsonArray } from '../../src/db/json-columns.js';
import { facetCounts, searchProducts } from '../../src/modules/catalogue/catalogue-search.repository.js';
import { colourKey } from '../../src/shared/colours.js';
import type { CatalogueFilter } from '../../src/shared/storefront-input.js';
import { createTestStore, type TestStore } from '../../src/test-support/test-store.js';
import { distinctFilters } from './cache-miss.js';
import { generateCatalogue } from './generate-catalogue.js';

const NONE: CatalogueFilter = { manufacturers: [], sizes: [], colors: [], tags: [], inStock: false };

/**
 * The bench's catalogue has real colour variants, written through the columns the products form writes, so
 * its cache-miss stream measures colour filters that leave products out and colour-scoped cards.
 */
describe('the generated catalogue', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await generateCatalogue(store.handle.db, 2_000);
  }, 120_000);
  afterAll(() => store.cleanup());

  it('has colour variants with swatches, own photos and stock per colour, some of it sold out', async () => {
    const db = store.handle.db;
    const products = await db.selectFrom('products').select(['id', 'colors', 'colour_options']).execute();
    const media = await db.selectFrom('media').select(['product_id', 'url']).execute();
    let ownPhotos = 0;
    for (const p of products) {
      const options = colourOptionsOf(p.colour_options);
      // The names column is the options' names, as productColumns writes it.
      expect(parseJsonArray(p.colors)).toEqual(options.map((o) => o.name));
      expect(options.length).toBeGreaterThan(0);
      for (const o of options) {
        expect(o.hex).toMatch(/^#[0-9a-f]{6}$/);
        // A colour's photos are among the product's own.
        for (const url of o.images) {
          expect(media.some((m) => m.product_id === p.id && m.url === url)).toBe(true);
          ownPhotos++;
        }
      }
    }
    expect(ownPhotos).toBeGreaterThan(50);
    const stock = await db.selectFrom('size_stock').selectAll().execute();
    const colourRows = stock.filter((r) => r.colour !== '');
    expect(colourRows.length).toBeGreaterThan(100);
    expect(stock.filter((r) => r.colour === '').length).toBeGreaterThan(100);
    expect(colourRows.filter((r) => r.on_hand === 0).length).toBeGreaterThan(20);
    // Every colour row is of one of its product's colours, under its key.
    const keysOf = new Map(products.map((p) => [p.id, parseJsonArray(p.colors).map(colourKey)]));
    for (const r of colourRows) expect(keysOf.get(r.product_id)).toContain(r.colour);
  });

  it('gives colour filters that leave products out and cards that show the colour they were found by', async () => {
    const db = store.handle.db;
    const teal = { ...NONE, colors: ['Teal'] };
    const holders = await db
      .selectFrom('product_facets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'color')
      .where('value_key', '=', 'teal')
      .executeTakeFirstOrThrow();
    const counted = (await facetCounts(db, NONE)).facets.color.find((o) => o.value === 'Teal')?.count ?? 0;
    expect(counted).toBeGreaterThan(0);
    // Some teal products have no teal left to sell.
    expect(counted).toBeLessThan(Number(holders.n));
    const page = await searchProducts(db, teal, { offset: 0, limit: 48 });
    expect(page.items.every((c) => c.colour === 'Teal')).toBe(true);
    // The stream asks for colours in a good share of its batches.
    const next = distinctFilters();
    const batches = Array.from({ length: 200 }, () => next().filter);
    expect(batches.filter((f) => f.colors.length > 0).length).toBeGreaterThan(40);
  });

  it('runs sales, so cards show sale prices, On sale finds them and the price sort goes by the price charged', async () => {
    const db = store.handle.db;
    const { facets } = await facetCounts(db, NONE);
    expect(facets.onSale).toBeGreaterThan(200);
    const onSale = await searchProducts(db, { ...NONE, onSale: true }, { offset: 0, limit: 48 });
    // A teal-only sale puts a product on sale without changing its card's own price.
    expect(onSale.items.some((c) => c.salePriceMinor !== undefined)).toBe(true);
    const cheapest = await searchProducts(db, NONE, { sort: 'price-asc', offset: 0, limit: 48 });
    const shown = cheapest.items.map((c) => c.salePriceMinor ?? c.priceMinor);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    expect(cheapest.items.some((c) => c.salePriceMinor !== undefined)).toBe(true);
    const next = distinctFilters();
    const batches = Array.from({ length: 200 }, () => next().filter);
    expect(batches.filter((f) => f.onSale).length).toBeGreaterThan(10);
  });
});
