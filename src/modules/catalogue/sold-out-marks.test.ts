import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueFilter } from '../../shared/storefront-input.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { recordQueries } from '../../test-support/query-recorder.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { searchProducts } from './catalogue-search.repository.js';
import { facetLoadInFlight } from './snapshot/snapshot-per-database.js';

const ALL: CatalogueFilter = { manufacturers: [], sizes: [], colors: [], tags: [], inStock: false };

/** The "Sold out" mark on listing cards, when the facet snapshot answers the listing. */
describe('sold-out marks on a listing', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [
      { id: 'gone', title: 'Lawn Kurta', sizes: '["S","M"]', page_order: 1 },
      { id: 'half', title: 'Lawn Shawl', sizes: '["S","M"]', page_order: 2 },
      { id: 'open', title: 'Lawn Suit', sizes: '["S"]', page_order: 3 },
      { id: 'case', title: 'Lawn Cape', sizes: '["M"]', page_order: 4 },
    ]);
    await store.handle.db
      .insertInto('size_stock')
      .values([
        { product_id: 'gone', size: 'S', on_hand: 0, reserved: 0 },
        // The last unit is held by an open checkout: nobody else can buy it.
        { product_id: 'gone', size: 'M', on_hand: 1, reserved: 1 },
        { product_id: 'half', size: 'S', on_hand: 0, reserved: 0 },
        { product_id: 'half', size: 'M', on_hand: 3, reserved: 0 },
        // Not the size the product has (M): sold out is a matter of the exact size, as on the product page.
        { product_id: 'case', size: 'm', on_hand: 0, reserved: 0 },
      ])
      .execute();
  });
  afterAll(() => store.cleanup());

  it('come from the snapshot, without a read of the stock table, and follow a sale', async () => {
    const queries: string[] = [];
    const db = store.handle.db.withPlugin(recordQueries(queries));
    const marks = async (f: CatalogueFilter) =>
      Object.fromEntries(
        (await searchProducts(db, f, { offset: 0, limit: 24 })).items.map((c) => [c.id, c.soldOut]),
      );
    const sizeMarks = async (f: CatalogueFilter, on: typeof db = db) =>
      Object.fromEntries(
        (await searchProducts(on, f, { offset: 0, limit: 24 })).items.map((c) => [
          c.id,
          c.soldOutSizes ?? [],
        ]),
      );
    // Each card's own sold-out sizes: the same from SQL, which answers while a first snapshot loads in a
    // worker (on the store's own connection, which a worker can open), and from the snapshot.
    const sizesSoldOut = { gone: ['S', 'M'], half: ['S'], open: [], case: [] };
    const plain = store.handle.db;
    const bySql = await searchProducts(plain, ALL, {
      offset: 0,
      limit: 24,
      snapshot: { inlineMaxProducts: 0 },
    });
    expect(facetLoadInFlight(plain)).not.toBeNull();
    expect(Object.fromEntries(bySql.items.map((c) => [c.id, c.soldOutSizes ?? []]))).toEqual(sizesSoldOut);
    await facetLoadInFlight(plain);
    expect(await sizeMarks(ALL, plain)).toEqual(sizesSoldOut);
    // The snapshot, stock included, has landed and answers from now on.
    expect(await marks(ALL)).toEqual({ gone: true, half: false, open: false, case: false });
    expect(await sizeMarks(ALL)).toEqual(sizesSoldOut);

    queries.length = 0;
    expect(await marks({ ...ALL, q: 'lawn' })).toEqual({ gone: true, half: false, open: false, case: false });
    expect(queries.filter((q) => q.includes('"size_stock"'))).toEqual([]);
    expect((await store.caller().catalogue.byId({ id: 'case' })).soldOut).toBe(false);

    await store.handle.db
      .updateTable('size_stock')
      .set({ on_hand: 0 })
      .where('product_id', '=', 'half')
      .where('size', '=', 'M')
      .execute();
    expect(await marks({ ...ALL, q: 'lawn' })).toEqual({ gone: true, half: true, open: false, case: false });
    expect(await sizeMarks(ALL)).toEqual({ ...sizesSoldOut, half: ['S', 'M'] });
    // And back: M of the shawl can be bought again.
    await store.handle.db
      .updateTable('size_stock')
      .set({ on_hand: 2 })
      .where('product_id', '=', 'half')
      .where('size', '=', 'M')
      .execute();
    expect(await sizeMarks({ ...ALL, q: 'lawn' })).toEqual(sizesSoldOut);
  });
});
