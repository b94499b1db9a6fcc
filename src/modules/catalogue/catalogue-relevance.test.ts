import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueFilter } from '../../shared/storefront-input.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { recordQueries } from '../../test-support/query-recorder.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { searchBySql, searchProducts } from './catalogue-search.repository.js';
import { idOfSlot, loadFacetSnapshot, refreshFacetSnapshot } from './snapshot/facet-snapshot.js';
import { eachSlot } from './snapshot/slot-sets.js';
import { matchesOf, relevanceOrder, textMatch } from './snapshot/snapshot-text.js';

/**
 * Six products that all match "silk", indexed in this order (a1 oldest): two with it in the title, one in
 * a tag, one in the maker, two only in the description. Relevance (decision 27) orders them by the field
 * the words are in (title, then maker or tags, then description), newest indexed first within a field.
 */
const catalogue = [
  { id: 'a1', title: 'Silk Kurta', price_minor: 1000 },
  { id: 'a2', title: 'Cotton Kurta', description: 'Lined with silk.', price_minor: 1000 },
  { id: 'a3', title: 'Lawn Shawl', tags: '["silk"]', price_minor: 1000 },
  { id: 'a4', title: 'Silk Shawl', tags: '["silk"]', price_minor: 1000 },
  { id: 'a5', title: 'Linen Saree', description: 'Lined with silk.', price_minor: 9000 },
  { id: 'a6', title: 'Cotton Saree', manufacturer: 'Silk Route', price_minor: 1000 },
  { id: 'x1', title: 'Velvet Waistcoat', price_minor: 1000 },
];

/** A search for "silk" with `extra` on top. */
const filter = (extra: Partial<CatalogueFilter> = {}): CatalogueFilter => ({
  q: 'silk',
  manufacturers: [],
  sizes: [],
  colors: [],
  tags: [],
  inStock: false,
  ...extra,
});

describe('relevance', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, catalogue);
  });
  afterAll(async () => store.cleanup());

  const page = (f: CatalogueFilter, offset = 0, limit = 24) =>
    searchProducts(store.handle.db, f, { offset, limit });
  const order = async (f: CatalogueFilter) => (await page(f)).items.map((p) => p.id);
  /** The SQL listing, which answers while no snapshot of the current revision exists. */
  const sqlOrder = async (f: CatalogueFilter, window: number, offset = 0, limit = 24) =>
    (await searchBySql(store.handle.db, f, { sort: 'relevance', offset, limit, rankWindow: window })).ids;

  /** Every page of `limit` from the start, joined: what infinite scroll shows. */
  async function scrolled(f: CatalogueFilter, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const next = await page(f, offset, limit);
      seen.push(...next.items.map((p) => p.id));
      offset = next.nextOffset;
    }
    return seen;
  }

  it('lists the title matches first, then the maker and tag matches, then the rest, newest first in each', async () => {
    expect(await order(filter())).toEqual(['a4', 'a1', 'a6', 'a3', 'a5', 'a2']);
    // A prefix is the same word to the index.
    expect(await order(filter({ q: 'sil' }))).toEqual(['a4', 'a1', 'a6', 'a3', 'a5', 'a2']);
    for (const limit of [1, 2, 4, 5]) {
      expect(await scrolled(filter(), limit)).toEqual(['a4', 'a1', 'a6', 'a3', 'a5', 'a2']);
    }
  });

  it('ranks by how many of the words are in the title, then in the maker or tags', async () => {
    // Both words in a1's title; in a2's only "kurta" (silk is in its description).
    expect(await order(filter({ q: 'silk kurta' }))).toEqual(['a1', 'a2']);
    expect(await order(filter({ q: 'kurta silk' }))).toEqual(['a1', 'a2']);
    // "shawl" is in both titles; "silk" is in a4's title and only in a3's tags.
    expect(await order(filter({ q: 'shawl silk' }))).toEqual(['a4', 'a3']);
    // Every word in the maker or tags beats one in the title and one in the description.
    expect(await order(filter({ q: 'route saree' }))).toEqual(['a6']);
  });

  it('ranks the same in SQL, which answers while a first snapshot loads', async () => {
    for (const q of ['silk', 'sil', 'silk kurta', 'shawl silk', 'lined', 'saree']) {
      expect(await sqlOrder(filter({ q }), 1_000)).toEqual(await order(filter({ q })));
    }
  });

  it('keeps the order the words alone give when other filters narrow the matches', async () => {
    const cheap = filter({ priceMax: 5000 });
    expect(await order(cheap)).toEqual(['a4', 'a1', 'a6', 'a3', 'a2']);
    expect((await page(cheap)).total).toBe(5);
    for (const limit of [1, 2, 4]) expect(await scrolled(cheap, limit)).toEqual(await order(cheap));
    expect(await order(filter({ tags: ['Silk'] }))).toEqual(['a4', 'a3']);
  });

  it('in SQL, ranks only the newest matches beyond the window, then lists the older ones newest first', async () => {
    // Newest three: a6, a5, a4, ranked; then a3, a2, a1.
    expect(await sqlOrder(filter(), 3)).toEqual(['a4', 'a6', 'a5', 'a3', 'a2', 'a1']);
    expect(await sqlOrder(filter(), 1)).toEqual(['a6', 'a5', 'a4', 'a3', 'a2', 'a1']);
    for (const limit of [1, 2, 4]) {
      const pages: string[] = [];
      for (let offset = 0; offset < 6; offset += limit)
        pages.push(...(await sqlOrder(filter(), 3, offset, limit)));
      expect(pages).toEqual(await sqlOrder(filter(), 3));
    }
    // The window holds the newest matches that pass the other filters: a5 costs too much, so a6, a4, a3.
    const cheap = filter({ priceMax: 5000 });
    expect(await sqlOrder(cheap, 3)).toEqual(['a4', 'a6', 'a3', 'a2', 'a1']);
    expect(
      (await searchBySql(store.handle.db, cheap, { sort: 'relevance', offset: 0, limit: 24, rankWindow: 3 }))
        .count,
    ).toBe(5);
  });

  it('keeps a product where it was when a save changes nothing it is searched or filtered by', async () => {
    const db = store.handle.db;
    const before = await order(filter());
    // What the admin form sends: every column, only the price different.
    const a1 = await db.selectFrom('products').selectAll().where('id', '=', 'a1').executeTakeFirstOrThrow();
    await db
      .updateTable('products')
      .set({ ...a1, price_minor: a1.price_minor + 1 })
      .where('id', '=', 'a1')
      .execute();
    expect(await order(filter())).toEqual(before);
    expect(await order(filter({ priceMin: 1001 }))).toEqual(['a1', 'a5']);
    expect(await sqlOrder(filter(), 1_000)).toEqual(before);
  });

  // Last: changing a product's text re-indexes it, which changes what "newest" means for the tests above.
  it('counts a product whose text was just changed as the newest', async () => {
    await store.handle.db
      .updateTable('products')
      .set({ title: 'Silk Kurta' })
      .where('id', '=', 'a2')
      .execute();
    expect(await order(filter())).toEqual(['a2', 'a4', 'a1', 'a6', 'a3', 'a5']);
    expect(await sqlOrder(filter(), 1)).toEqual(['a2', 'a6', 'a5', 'a4', 'a3', 'a1']);
  });
});

describe("a search's words between changes", () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, catalogue);
  });
  afterAll(async () => store.cleanup());

  it('keeps the words it read while only stock, settings or pictures change, and reads them again once a product changes', async () => {
    // The full-text reads, seen through a plugin on the store's database (its own snapshot and caches).
    const queries: string[] = [];
    const db = store.handle.db.withPlugin(recordQueries(queries));
    const reads = () =>
      queries.filter((q) => q.includes('products_fts') || q.includes('product_search ')).length;
    const search = async () =>
      (await searchProducts(db, filter(), { offset: 0, limit: 24 })).items.map((p) => p.id);

    expect(await search()).toEqual(['a4', 'a1', 'a6', 'a3', 'a5', 'a2']);
    const first = reads();
    expect(first).toBeGreaterThan(0);

    // A size sold out, then the shop's name: the storefront revision moves twice, no product changes.
    await sql`INSERT INTO size_stock (product_id, size, on_hand) VALUES ('a1', 'M', 0)`.execute(db);
    expect(await search()).toEqual(['a4', 'a1', 'a6', 'a3', 'a5', 'a2']);
    await sql`UPDATE settings SET store_name = 'Renamed'`.execute(db);
    expect(await search()).toEqual(['a4', 'a1', 'a6', 'a3', 'a5', 'a2']);
    expect(reads()).toBe(first);

    // A product's words change: read again, and the product is found by its new title.
    await sql`UPDATE products SET title = 'Silk Velvet Waistcoat' WHERE id = 'x1'`.execute(db);
    expect(await search()).toEqual(['x1', 'a4', 'a1', 'a6', 'a3', 'a5', 'a2']);
    expect(reads()).toBeGreaterThan(first);
  });
});

describe('words read while a product changes', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [
      ...catalogue,
      { id: 'z1', title: 'Velvet Cape', price_minor: 1000 },
    ]);
  });
  afterAll(async () => store.cleanup());

  it('reads them again when a refresh applied a change meanwhile, and keeps no order of the old products', async () => {
    const db = store.handle.db;
    const snap = await loadFacetSnapshot(db, 'r1');
    // The word's index read runs, then waits before its rows come back, until released.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let hold = true;
    const slow = db.withPlugin({
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => {
        if (hold) {
          hold = false;
          await held;
        }
        return result;
      },
    });
    const reading = textMatch(slow, snap, 'silk');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Meanwhile z1 gains the word, and the snapshot applies that change.
    await sql`UPDATE products SET title = 'Silk Cape' WHERE id = 'z1'`.execute(db);
    expect(await refreshFacetSnapshot(db, snap, 'r2')).toBe(snap);
    release();
    const text = await reading;
    if (!text) throw new Error('expected a text match');
    const found = (mask: Uint32Array) => {
      const ids: string[] = [];
      eachSlot(mask, (slot) => ids.push(idOfSlot(snap, slot)));
      return ids.sort();
    };
    const matches = matchesOf(snap, text);
    expect(found(matches)).toContain('z1');
    expect([...relevanceOrder(snap, text, matches)].map((slot) => idOfSlot(snap, slot))).toContain('z1');
  });
});
