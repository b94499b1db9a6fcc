import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueFilter } from '../../shared/catalogue-input.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { RANK_WINDOW, searchBySql, searchProducts } from './catalogue-search.repository.js';
import { fullText } from './full-text.js';

/**
 * Six products that all match "silk", indexed in this order (a1 oldest). The "strong" ones have the word
 * in the title and a tag and identical lengths, so they tie and their index order decides; the "weak" ones
 * only mention it in the description, also with identical lengths.
 */
const strong = (id: string, title: string) => ({ id, title, tags: '["silk"]', price_minor: 1000 });
const weak = (id: string, title: string, price = 1000) => ({
  id,
  title,
  description: 'Lined with silk.',
  price_minor: price,
});
const catalogue = [
  strong('a1', 'Silk Kurta'),
  weak('a2', 'Cotton Kurta'),
  strong('a3', 'Silk Shawl'),
  weak('a4', 'Lawn Shawl'),
  weak('a5', 'Linen Saree', 9000),
  strong('a6', 'Silk Saree'),
  { id: 'x1', title: 'Velvet Waistcoat', price_minor: 1000 },
];

describe('relevance ranking window', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, catalogue);
  });
  afterAll(async () => store.cleanup());

  const filter = (extra: Partial<CatalogueFilter> = {}): CatalogueFilter => ({
    q: 'silk',
    manufacturers: [],
    sizes: [],
    colors: [],
    tags: [],
    inStock: false,
    ...extra,
  });
  const page = (f: CatalogueFilter, window: number, offset = 0, limit = 24) =>
    searchProducts(store.handle.db, f, { offset, limit, rankWindow: window });
  const order = async (f: CatalogueFilter, window: number) => (await page(f, window)).items.map((p) => p.id);

  /** Every page of `limit` from the start, joined: what infinite scroll shows. */
  async function scrolled(f: CatalogueFilter, window: number, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const next = await page(f, window, offset, limit);
      seen.push(...next.items.map((p) => p.id));
      offset = next.nextOffset;
    }
    return seen;
  }

  it('ranks every match by bm25 when they fit in the window, as the index itself does', async () => {
    const silk = await fullText(store.handle.db, 'silk');
    if (!silk) throw new Error('silk is a search word');
    const byIndex = await sql<{ id: string }>`SELECT s.product_id AS id FROM ${silk.table}
      JOIN product_search_ids s ON s.rowid = ${silk.rowid}
      WHERE ${silk.match} ORDER BY ${silk.rank}, ${silk.rowid}`.execute(store.handle.db);
    expect(byIndex.rows.map((r) => r.id)).toEqual(['a1', 'a3', 'a6', 'a2', 'a4', 'a5']);
    expect(await order(filter(), 6)).toEqual(['a1', 'a3', 'a6', 'a2', 'a4', 'a5']);
    expect(await order(filter(), RANK_WINDOW)).toEqual(['a1', 'a3', 'a6', 'a2', 'a4', 'a5']);
  });

  it('ranks only the newest matches beyond the window, then lists the older ones newest first', async () => {
    // Newest three: a6, a5, a4. a6 is the only strong one among them.
    expect(await order(filter(), 3)).toEqual(['a6', 'a4', 'a5', 'a3', 'a2', 'a1']);
    // Newest four adds a3, which ties with a6 and is older, so it comes first.
    expect(await order(filter(), 4)).toEqual(['a3', 'a6', 'a4', 'a5', 'a2', 'a1']);
    expect(await order(filter(), 1)).toEqual(['a6', 'a5', 'a4', 'a3', 'a2', 'a1']);
    expect((await page(filter(), 3)).total).toBe(6);
  });

  it('pages across the window edge without skipping or repeating a product', async () => {
    const whole = await order(filter(), 3);
    for (const limit of [1, 2, 3, 4, 5, 6]) {
      expect(await scrolled(filter(), 3, limit)).toEqual(whole);
    }
    const straddling = await page(filter(), 3, 2, 3);
    expect(straddling.items.map((p) => p.id)).toEqual(['a5', 'a3', 'a2']);
    expect(straddling.nextOffset).toBe(5);
    expect((await page(filter(), 3, 6, 3)).items).toEqual([]);
  });

  it('keeps the order the words alone give when other filters narrow the matches (decision 26)', async () => {
    // The window is of the words' newest matches (a6, a5, a4); a5 costs too much, so a6 and a4 stay ranked
    // and the older matches follow, newest first.
    const cheap = filter({ priceMax: 5000 });
    expect(await order(cheap, 3)).toEqual(['a6', 'a4', 'a3', 'a2', 'a1']);
    expect((await page(cheap, 3)).total).toBe(5);
    for (const limit of [1, 2, 4]) expect(await scrolled(cheap, 3, limit)).toEqual(await order(cheap, 3));
    for (const window of [1, 2, 3, 4, 6]) {
      const cheapIds = new Set(await order(cheap, window));
      expect(await order(cheap, window)).toEqual(
        (await order(filter(), window)).filter((id) => cheapIds.has(id)),
      );
    }

    // A facet filter: only the strong ones carry the tag.
    const tagged = filter({ tags: ['Silk'] });
    expect(await order(tagged, 2)).toEqual(['a6', 'a3', 'a1']);
    expect(await order(tagged, 24)).toEqual(['a1', 'a3', 'a6']);
    expect((await page(tagged, 2)).total).toBe(3);
  });

  it('in SQL (while a first snapshot loads), fills the window with matches that pass the other filters', async () => {
    const sqlOrder = async (f: CatalogueFilter, window: number, offset = 0, limit = 24) =>
      (await searchBySql(store.handle.db, f, { sort: 'relevance', offset, limit, rankWindow: window })).ids;
    // a5 costs too much: the newest three that pass are a6, a4 and a3.
    const cheap = filter({ priceMax: 5000 });
    expect(await sqlOrder(cheap, 3)).toEqual(['a3', 'a6', 'a4', 'a2', 'a1']);
    expect(
      (await searchBySql(store.handle.db, cheap, { sort: 'relevance', offset: 0, limit: 24, rankWindow: 3 }))
        .count,
    ).toBe(5);
    expect([
      ...(await sqlOrder(cheap, 3, 0, 2)),
      ...(await sqlOrder(cheap, 3, 2, 2)),
      ...(await sqlOrder(cheap, 3, 4, 2)),
    ]).toEqual(await sqlOrder(cheap, 3));
    const tagged = filter({ tags: ['Silk'] });
    expect(await sqlOrder(tagged, 2)).toEqual(['a3', 'a6', 'a1']);
    expect(await sqlOrder(tagged, 24)).toEqual(['a1', 'a3', 'a6']);
  });

  it('keeps a product where it was when a save changes nothing it is searched or filtered by', async () => {
    const db = store.handle.db;
    const before = await order(filter(), 3);
    // What the admin form sends: every column, only the price different.
    const a1 = await db.selectFrom('products').selectAll().where('id', '=', 'a1').executeTakeFirstOrThrow();
    await db
      .updateTable('products')
      .set({ ...a1, price_minor: a1.price_minor + 1 })
      .where('id', '=', 'a1')
      .execute();
    expect(await order(filter(), 3)).toEqual(before);
    // a5 is among the three newest matches and ranked; a1, older, follows.
    expect((await page(filter({ priceMin: 1001 }), 3)).items.map((p) => p.id)).toEqual(['a5', 'a1']);
    expect((await page(filter({ priceMin: 1001 }), 6)).items.map((p) => p.id)).toEqual(['a1', 'a5']);
  });

  // Last: changing a product's text re-indexes it, which changes what "newest" means for the tests above.
  it('counts a product whose text was just changed among the newest matches', async () => {
    await store.handle.db
      .updateTable('products')
      .set({ title: 'Silk Kurta' })
      .where('id', '=', 'a2')
      .execute();
    expect(await order(filter(), 1)).toEqual(['a2', 'a6', 'a5', 'a4', 'a3', 'a1']);
    // Title and description (11) against a6's title and tag (16).
    expect(await order(filter(), 2)).toEqual(['a6', 'a2', 'a5', 'a4', 'a3', 'a1']);
  });
});
