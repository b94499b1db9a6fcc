import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueFilter } from '../../shared/catalogue-input.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { facetCounts, searchProducts } from './catalogue-search.repository.js';
import { loadFacetSnapshot, refreshFacetSnapshot } from './facet-snapshot.js';
import { countBits } from './slot-sets.js';
import { filterOver, masksNow } from './snapshot-search.js';

const NONE: CatalogueFilter = { manufacturers: [], sizes: [], colors: [], tags: [], inStock: false };

/** A filter worked out once over the snapshot for the calls of a listing's batch (snapshot-search.ts). */
describe("a filter's masks, kept for the calls after it", () => {
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

  it('are worked out once for the same filter, whatever the sort or page', async () => {
    const snap = await loadFacetSnapshot(store.handle.db, 'r1');
    const f = { ...NONE, q: 'lawn', sizes: ['S'] };
    const first = await filterOver(store.handle.db, snap, f);
    expect((await filterOver(store.handle.db, snap, { ...f })).masks).toBe(first.masks);
    expect((await filterOver(store.handle.db, snap, { ...f, sizes: ['M'] })).masks).not.toBe(first.masks);
  });

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

  it('are worked out again when the snapshot moved between filterOver and their use', async () => {
    const db = store.handle.db;
    await db
      .insertInto('size_stock')
      .values({ product_id: 'shawl', size: 'S', on_hand: 1, reserved: 0 })
      .execute();
    const snap = await loadFacetSnapshot(db, 'a');
    const f = { ...NONE, sizes: ['S'], inStock: true };
    const filtered = await filterOver(db, snap, f);
    expect(masksNow(snap, f, filtered)).toBe(filtered.masks);
    const before = countBits(filtered.masks.everything);

    await db.updateTable('size_stock').set({ on_hand: 0 }).where('product_id', '=', 'shawl').execute();
    expect(await refreshFacetSnapshot(db, snap, 'b')).toBe(snap);
    const now = masksNow(snap, f, filtered);
    expect(now).not.toBe(filtered.masks);
    expect(countBits(now.everything)).toBe(before - 1);
  });
});
