import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueSearchInput } from '../../shared/storefront-input.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

/** A small catalogue whose every filter combination has a known answer. */
const catalogue = [
  {
    id: 'k1',
    title: 'Mint Lawn Kurta',
    manufacturer: 'Zarnigar Atelier',
    sizes: '["S","M"]',
    colors: '["Mint"]',
    tags: '["lawn","women"]',
    price_minor: 8500,
    page_order: 1,
    created_at: '2026-01-01T00:00:00.000Z',
  },
  {
    id: 'k2',
    title: 'Ivory Chikankari Kurta',
    description: 'Hand embroidered chikankari on fine cotton.',
    manufacturer: 'Noor Mahal',
    sizes: '["M","L"]',
    colors: '["Ivory"]',
    tags: '["embroidered","women"]',
    price_minor: 12450,
    page_order: 2,
    created_at: '2026-03-01T00:00:00.000Z',
  },
  {
    id: 's1',
    title: 'Emerald Silk Sherwani',
    manufacturer: 'Noor Mahal',
    sizes: '["L","XL"]',
    colors: '["Emerald","Gold"]',
    tags: '["wedding","men"]',
    price_minor: 48000,
    page_order: 3,
    created_at: '2026-02-01T00:00:00.000Z',
  },
  {
    id: 'l1',
    title: 'Crimson Bridal Lehenga',
    description: 'Café-style zardozi on velvet.',
    manufacturer: 'Zarnigar Atelier',
    sizes: '["S","M","L"]',
    colors: '["Crimson","Gold"]',
    tags: '["wedding","women"]',
    price_minor: 42499,
    page_order: 4,
    created_at: '2026-04-01T00:00:00.000Z',
  },
  {
    id: 'd1',
    title: 'Chiffon Dupatta',
    manufacturer: 'Sehar Looms',
    sizes: '[]',
    colors: '["Mint"]',
    tags: '["chiffon"]',
    price_minor: 3600,
    page_order: 5,
    created_at: '2026-05-01T00:00:00.000Z',
  },
];

describe('catalogue search, filters and facets', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, catalogue);
  });
  afterAll(async () => store.cleanup());

  const ids = async (input: CatalogueSearchInput) =>
    (await store.caller().catalogue.search(input)).items.map((p) => p.id);

  it('finds words in the title, description, manufacturer and tags, with prefixes', async () => {
    expect(await ids({ q: 'kurta' })).toEqual(expect.arrayContaining(['k1', 'k2']));
    expect((await ids({ q: 'kurta' })).length).toBe(2);
    expect(await ids({ q: 'kurt' })).toHaveLength(2);
    expect(await ids({ q: 'chikankari' })).toEqual(['k2']);
    expect(await ids({ q: 'zarnigar' })).toEqual(expect.arrayContaining(['k1', 'l1']));
    expect(await ids({ q: 'wedding' })).toEqual(expect.arrayContaining(['s1', 'l1']));
    expect(await ids({ q: 'wedding women' })).toEqual(['l1']);
  });

  it('ignores case and accents', async () => {
    expect(await ids({ q: 'KURTA' })).toHaveLength(2);
    expect(await ids({ q: 'cafe' })).toEqual(['l1']);
    expect(await ids({ q: 'Café' })).toEqual(['l1']);
    expect(await ids({ q: 'émerald' })).toEqual(['s1']);
  });

  it('ranks a title match above a description match', async () => {
    await insertProducts(store.handle.db, [
      { id: 'z9', title: 'Plain Shawl', description: 'Pairs well with a velvet kurta.', page_order: 0 },
    ]);
    try {
      const found = await ids({ q: 'kurta' });
      expect(found.slice(0, 2).sort()).toEqual(['k1', 'k2']);
      expect(found.at(-1)).toBe('z9');
    } finally {
      await store.handle.db.deleteFrom('products').where('id', '=', 'z9').execute();
    }
  });

  it('survives hostile search text and treats it as plain words', async () => {
    const hostile = [
      '"',
      '"kurta',
      'kurta"*',
      'kurta OR sherwani',
      'NEAR(kurta sherwani)',
      '-kurta',
      'title:kurta',
      '^kurta',
      'kurta AND',
      '%',
      '_',
      '%_%',
      "'; DROP TABLE products; --",
      'kurta\u0000',
      '\u0000',
      '*',
      '()',
      '{}[]',
    ];
    for (const q of hostile) {
      const page = await store.caller().catalogue.search({ q });
      expect(Array.isArray(page.items)).toBe(true);
    }
    expect(await ids({ q: 'kurta\u0000' })).toHaveLength(2);
    expect(await ids({ q: '%' })).toHaveLength(5); // nothing searchable: no text filter
    expect(await ids({ q: 'title:kurta' })).toEqual([]); // "title" AND "kurta": no product has both words
    const rows = await store.handle.db.selectFrom('products').select('id').execute();
    expect(rows.length).toBe(5);
  });

  it('refuses a 10,000-character search with a validation error', async () => {
    await expect(store.caller().catalogue.search({ q: 'a'.repeat(10_000) })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await ids({ q: 'kurta '.repeat(33) })).toHaveLength(2);
  });

  it('ORs within a group and ANDs across groups; an empty group filters nothing', async () => {
    expect(await ids({ sizes: ['S'] })).toEqual(['k1', 'l1']);
    expect(await ids({ sizes: ['S', 'XL'] })).toEqual(['k1', 's1', 'l1']);
    expect(await ids({ sizes: ['s'] })).toEqual(['k1', 'l1']); // case-insensitive
    expect(await ids({ manufacturers: ['noor mahal'] })).toEqual(['k2', 's1']);
    expect(await ids({ manufacturers: ['Noor Mahal'], sizes: ['L'] })).toEqual(['k2', 's1']);
    expect(await ids({ manufacturers: ['Noor Mahal'], sizes: ['XL'] })).toEqual(['s1']);
    expect(await ids({ colors: ['gold'], tags: ['women'] })).toEqual(['l1']);
    expect(await ids({ colors: ['Mint', 'Ivory'] })).toEqual(['k1', 'k2', 'd1']);
    expect(await ids({ tags: [], sizes: [], colors: [], manufacturers: [] })).toHaveLength(5);
    expect(await ids({ tags: ['no-such-tag'] })).toEqual([]);
    expect(await ids({ priceMin: 10000, priceMax: 45000 })).toEqual(['k2', 'l1']);
    expect(await ids({ priceMin: 42499, priceMax: 42499 })).toEqual(['l1']);
    expect(await ids({ q: 'kurta', colors: ['mint'] })).toEqual(['k1']);
  });

  it('sorts by featured, newest and price, with ties broken by id', async () => {
    expect(await ids({})).toEqual(['k1', 'k2', 's1', 'l1', 'd1']);
    expect(await ids({ sort: 'newest' })).toEqual(['d1', 'l1', 'k2', 's1', 'k1']);
    expect(await ids({ sort: 'price-asc' })).toEqual(['d1', 'k1', 'k2', 'l1', 's1']);
    expect(await ids({ sort: 'price-desc' })).toEqual(['s1', 'l1', 'k2', 'k1', 'd1']);
    expect(await ids({ sort: 'relevance' })).toEqual(['k1', 'k2', 's1', 'l1', 'd1']); // no text: featured
  });

  it('counts each facet option for the search and the other groups', async () => {
    const all = await store.caller().catalogue.facets({});
    expect(all.manufacturer).toEqual([
      { value: 'Noor Mahal', count: 2 },
      { value: 'Zarnigar Atelier', count: 2 },
      { value: 'Sehar Looms', count: 1 },
    ]);
    expect(all.size.map((o) => o.value)).toEqual(['S', 'M', 'L', 'XL']); // size order, not counts
    expect(all.size).toContainEqual({ value: 'M', count: 3 });
    expect(all.price).toEqual({ min: 3600, max: 48000 });

    // Picking size S: sizes still show every option (own group left out), others narrow to S products.
    const s = await store.caller().catalogue.facets({ sizes: ['S'] });
    expect(s.size).toContainEqual({ value: 'XL', count: 1 });
    expect(s.manufacturer).toEqual([{ value: 'Zarnigar Atelier', count: 2 }]);
    expect(s.color).toEqual(
      expect.arrayContaining([
        { value: 'Crimson', count: 1 },
        { value: 'Gold', count: 1 },
        { value: 'Mint', count: 1 },
      ]),
    );

    const text = await store.caller().catalogue.facets({ q: 'wedding' });
    expect(text.tag).toEqual(
      expect.arrayContaining([
        { value: 'wedding', count: 2 },
        { value: 'men', count: 1 },
        { value: 'women', count: 1 },
      ]),
    );
    // A chosen option that matches nothing is still listed so it can be unticked.
    const none = await store.caller().catalogue.facets({ q: 'dupatta', colors: ['Ivory'] });
    expect(none.color).toContainEqual({ value: 'Ivory', count: 0 });
  });

  it('matches the counts the listing gives when that option is picked', async () => {
    const f = await store.caller().catalogue.facets({ tags: ['women'] });
    for (const option of f.size) {
      const page = await store.caller().catalogue.search({ tags: ['women'], sizes: [option.value] });
      expect(page.total).toBe(option.count);
    }
  });

  it('keeps the index in step when products change or go', async () => {
    await store.handle.db
      .updateTable('products')
      .set({ title: 'Saffron Kaftan', tags: '["resort"]' })
      .where('id', '=', 'd1')
      .execute();
    expect(await ids({ q: 'kaftan' })).toEqual(['d1']);
    expect(await ids({ q: 'dupatta' })).toEqual([]);
    expect(await ids({ tags: ['resort'] })).toEqual(['d1']);
    expect(await ids({ tags: ['chiffon'] })).toEqual([]);
    await store.handle.db.deleteFrom('products').where('id', '=', 'd1').execute();
    expect(await ids({ q: 'kaftan' })).toEqual([]);
    const facets = await store.caller().catalogue.facets({});
    expect(facets.manufacturer.map((m) => m.value)).not.toContain('Sehar Looms');
    // No orphans: the text index and its id map hold exactly the products that exist.
    const count = async (table: 'products' | 'products_fts' | 'product_search' | 'product_search_ids') =>
      Number(
        (await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(store.handle.db))
          .rows[0]?.n,
      );
    expect(await count(store.engine === 'postgres' ? 'product_search' : 'products_fts')).toBe(
      await count('products'),
    );
    expect(await count('product_search_ids')).toBe(await count('products'));
  });

  it('suggests related products: shared tags first, then colours, else others', async () => {
    const related = await store.caller().catalogue.related({ id: 'l1' });
    expect(related.heading).toBe('Related Products');
    expect(related.items[0]?.id).toBe('s1'); // shares "wedding" and "Gold"
    expect(related.items.map((p) => p.id)).not.toContain('l1');
    expect(related.items.length).toBeLessThanOrEqual(3);

    await insertProducts(store.handle.db, [
      { id: 'c1', title: 'Ivory Waistcoat', tags: '["solo-tag"]', colors: '["Ivory"]' },
      { id: 'u1', title: 'Ultraviolet Cape', tags: '["another-solo"]', colors: '["Ultraviolet"]' },
    ]);
    const similar = await store.caller().catalogue.related({ id: 'c1' });
    expect(similar.heading).toBe('Similar Products');
    expect(similar.items[0]?.id).toBe('k2');
    const others = await store.caller().catalogue.related({ id: 'u1' });
    expect(others.heading).toBe('You May Also Like');
    expect(others.items).toHaveLength(3);
    expect(new Set(others.items.map((p) => p.id)).size).toBe(3);
    expect(others.items.map((p) => p.id)).not.toContain('u1');
  });

  it('finds a product by slugified title or by id, case-insensitively', async () => {
    expect(await store.caller().catalogue.bySlug({ slug: 'mint-lawn-kurta' })).toEqual({ id: 'k1' });
    expect(await store.caller().catalogue.bySlug({ slug: 'Mint Lawn KURTA' })).toEqual({ id: 'k1' });
    expect(await store.caller().catalogue.bySlug({ slug: 'k2' })).toEqual({ id: 'k2' });
    expect(await store.caller().catalogue.bySlug({ slug: 'no-such-thing' })).toEqual({ id: null });
    expect(await store.caller().catalogue.bySlug({ slug: '---' })).toEqual({ id: null });
  });
});
