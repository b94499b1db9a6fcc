import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueFilter } from '../../../shared/storefront-input.js';
import { insertProducts } from '../../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../../test-support/test-store.js';
import { facetCounts, searchProducts } from '../catalogue-search.repository.js';

const NONE: CatalogueFilter = { manufacturers: [], sizes: [], colors: [], tags: [], inStock: false };

/** A filter's masks over the snapshot, worked out in scratch memory where they are used (snapshot-search.ts). */
describe("a listing's masks", () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [
      { id: 'kurta', title: 'Lawn Kurta', sizes: '["S","M"]', page_order: 1 },
      { id: 'shawl', title: 'Lawn Shawl', sizes: '["S"]', page_order: 2 },
    ]);
    await store.handle.db
      .insertInto('size_stock')
      .values({ product_id: 'kurta', size: 'S', on_hand: 1, reserved: 0 })
      .execute();
  });
  afterAll(() => store.cleanup());

  it('are worked out again when a size sells out, which moves the revision and not the words', async () => {
    const db = store.handle.db;
    const inStockS = { ...NONE, q: 'lawn', sizes: ['S'], inStock: true };
    const listing = async () =>
      (await searchProducts(db, inStockS, { sort: 'featured', offset: 0, limit: 24 })).items.map((c) => c.id);
    const sizeS = async () =>
      (await facetCounts(db, inStockS)).facets.size.find((o) => o.value === 'S')?.count ?? 0;

    expect(await listing()).toEqual(['kurta', 'shawl']);
    expect(await sizeS()).toBe(2);

    await db
      .updateTable('size_stock')
      .set({ on_hand: 0 })
      .where('product_id', '=', 'kurta')
      .where('size', '=', 'S')
      .execute();
    expect(await listing()).toEqual(['shawl']);
    expect(await sizeS()).toBe(1);
  });

  it('are worked out afresh for every listing: what one left in scratch memory never reaches the next', async () => {
    const db = store.handle.db;
    // Enough products, spread over words and sizes, that one filter's masks differ from another's.
    await insertProducts(
      db,
      Array.from({ length: 60 }, (_, i) => ({
        id: `more${i}`,
        title: `${['Lawn', 'Silk', 'Khaddar'][i % 3]} ${['Kurta', 'Shawl'][i % 2]} ${i}`,
        sizes: JSON.stringify([['S'], ['M'], ['S', 'M'], []][i % 4]),
        price_minor: 1000 + i * 10,
        page_order: 10 + i,
      })),
    );
    const filters: CatalogueFilter[] = [
      { ...NONE, q: 'lawn', sizes: ['S'] },
      { ...NONE, q: 'shawl lawn' },
      { ...NONE, sizes: ['M'] },
      { ...NONE, q: 'kurta', priceMin: 1 },
    ];
    const answer = async (f: CatalogueFilter) => {
      const page = await searchProducts(db, f, { offset: 0, limit: 24 });
      const facets = (await facetCounts(db, f)).facets;
      return JSON.stringify([page.items.map((c) => c.id), page.total, facets.size, facets.price]);
    };
    const first: string[] = [];
    for (const f of filters) first.push(await answer(f));
    expect(first[1]).toContain('"shawl"');
    expect(first[1]).not.toContain('"kurta"');
    // A new revision (no product changed): the facet counts are not taken from their cache but counted
    // again, now in the other order, each after a different listing than the first time.
    await sql`UPDATE app_meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'storefront_revision'`.execute(
      db,
    );
    const again: string[] = [];
    for (const f of [...filters].reverse()) again.push(await answer(f));
    expect(again.reverse()).toEqual(first);
  });
});
