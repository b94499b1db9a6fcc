import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP } from '../../shared/catalogue.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

/**
 * Counts are exact up to COUNT_CAP and "at least" beyond (decision 0024), in every way a listing is counted:
 * words alone, words with a filter, filters alone. Pages go on past the cap until the matches end.
 */
describe('capped counts', () => {
  let store: TestStore;
  // COUNT_CAP + 5 kurtas in M, and COUNT_CAP shawls of which one in M.
  const kurtas = COUNT_CAP + 5;
  beforeAll(async () => {
    store = await createTestStore();
    const rows = [
      ...Array.from({ length: kurtas }, (_, i) => ({
        id: `k${String(i).padStart(5, '0')}`,
        title: `Lawn Kurta ${i}`,
        sizes: '["M"]',
      })),
      ...Array.from({ length: COUNT_CAP }, (_, i) => ({
        id: `s${String(i).padStart(5, '0')}`,
        title: `Velvet Shawl ${i}`,
        sizes: i === 0 ? '["M"]' : '["L"]',
      })),
    ];
    for (let i = 0; i < rows.length; i += 250) await insertProducts(store.handle.db, rows.slice(i, i + 250));
  }, 60_000);
  afterAll(async () => store.cleanup());

  const search = (input: { q?: string; sizes?: string[]; cursor?: number; sort?: 'newest' }) =>
    store.caller().catalogue.search({ limit: 48, ...input });

  it('says "at least" past the cap, for words, words with a filter and filters alone', async () => {
    for (const input of [{ q: 'kurta' }, { q: 'lawn', sizes: ['M'] }, { sizes: ['M'] }, {}]) {
      const page = await search(input);
      expect(page, JSON.stringify(input)).toMatchObject({
        total: COUNT_CAP,
        totalCapped: true,
        nextOffset: 48,
      });
    }
  });

  it('is exact up to the cap', async () => {
    expect(await search({ q: 'shawl' })).toMatchObject({ total: COUNT_CAP, totalCapped: false });
    expect(await search({ q: 'shawl', sizes: ['L'] })).toMatchObject({
      total: COUNT_CAP - 1,
      totalCapped: false,
    });
    expect(await search({ q: 'shawl', sizes: ['M'] })).toMatchObject({ total: 1, totalCapped: false });
  });

  it('pages on past the cap to the last match, without a gap or a repeat', async () => {
    const seen = new Set<string>();
    let cursor: number | null = 0;
    while (cursor !== null) {
      const page = await search({ q: 'kurta', cursor, sort: 'newest' });
      for (const item of page.items) seen.add(item.id);
      cursor = page.nextOffset;
    }
    expect(seen.size).toBe(kurtas);
  }, 60_000);
});

/** A single character is not a search word (decision 0024), on both engines alike. */
describe('one-character words', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [
      { id: 'a1', title: 'A Lawn Kurta', description: 'a kurta' },
      { id: 'a2', title: 'Emerald Shawl', description: 'an evening shawl' },
      { id: 'a3', title: 'Velvet Sherwani', description: 'x' },
    ]);
  });
  afterAll(async () => store.cleanup());

  const ids = async (q: string) =>
    (await store.caller().catalogue.search({ q })).items.map((c) => c.id).sort();

  it('drops one-character words and keeps the others', async () => {
    expect(await ids('a kurta')).toEqual(['a1']);
    expect(await ids('k u r t a lawn')).toEqual(['a1']);
    expect(await ids('sh')).toEqual(['a2', 'a3']);
  });

  it('treats a query of one-character words as no query: the whole listing', async () => {
    for (const q of ['e', 'a', 'x', 'e a']) expect(await ids(q)).toEqual(['a1', 'a2', 'a3']);
    const facets = await store.caller().catalogue.facets({ q: 'e' });
    expect(facets.price).not.toBeNull();
  });
});
