import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import fc from 'fast-check';
import { Migrator } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../migrations/index.js';
import { type DatabaseHandle, databaseFile, openDatabase } from '../../db/connect.js';
import type { Db } from '../../db/database.js';
import { withoutNul } from '../../db/postgres/text-without-nul.js';
import type { CatalogueFilter } from '../../shared/storefront-input.js';
import { insertProducts, productRow } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { facetCounts, searchBySql, searchProducts } from './catalogue-search.repository.js';
import { FACET_GROUPS, facetKeys } from './search-query.js';

/**
 * Search text and facet keys are folded by one function (foldForSearch) on both sides: by the triggers
 * through search_fold() (migration 0011) and by the filter and query code. These tests hold the two sides
 * together, check that an existing catalogue is indexed again, and that a connection without the
 * function cannot index unfolded text.
 */

const NONE: CatalogueFilter = { manufacturers: [], sizes: [], colors: [], tags: [], inStock: false };

/** Spellings a shop or a shopper may use: compatibility forms, capitals of any script, odd spaces. */
const spelling = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc
    .array(
      fc.constantFrom('ﬁ', 'Ｌ', 'ａ', 'İ', 'ı', 'ǅ', 'Σ', 'ς', 'É', 'e\u0301', ' ', '\u3000', 'w', 'N', '²'),
      {
        maxLength: 8,
      },
    )
    .map((parts) => parts.join('')),
);

async function facetRows(db: Db, id: string) {
  return db.selectFrom('product_facets').select(['kind', 'value_key']).where('product_id', '=', id).execute();
}

describe('facet keys folded like search text', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(async () => store.cleanup());

  it('stores for any value exactly the keys a filter for that value looks for', async () => {
    let next = 0;
    await fc.assert(
      fc.asyncProperty(spelling, async (value) => {
        const id = `f${next++}`;
        const list = JSON.stringify([value]);
        await insertProducts(store.handle.db, [
          { id, manufacturer: value, sizes: list, colors: list, tags: list },
        ]);
        try {
          const rows = await facetRows(store.handle.db, id);
          for (const { kind } of FACET_GROUPS) {
            const stored = rows.filter((r) => r.kind === kind).map((r) => r.value_key);
            // PostgreSQL text holds no U+0000: the store writes it, and looks it up, as U+FFFD.
            const wanted = facetKeys(kind, [value]).map((k) =>
              store.engine === 'postgres' ? String(withoutNul(k)) : k,
            );
            expect(stored, `${kind} ${JSON.stringify(value)}`).toEqual(wanted);
          }
        } finally {
          await store.handle.db.deleteFrom('products').where('id', '=', id).execute();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('lets a filter typed in another form pick the value, as a search for it finds it', async () => {
    await insertProducts(store.handle.db, [
      {
        id: 't1',
        title: 'Plain Vest ΣΙΣΥΦΟΣ',
        tags: '["ＬＡＷＮ","İpek"]',
        colors: '["ΣΜΑΡΑΓΔΙ"]',
        manufacturer: 'ﬁne House',
      },
      {
        id: 't2',
        title: 'Other Vest σισυφος',
        tags: '["lawn"]',
        colors: '["σμαραγδι"]',
        manufacturer: 'Fine House',
      },
    ]);
    try {
      const pick = async (f: Partial<CatalogueFilter>) =>
        (await searchProducts(store.handle.db, { ...NONE, ...f }, { offset: 0, limit: 48 })).items
          .map((p) => p.id)
          .sort();
      expect(await pick({ tags: ['Lawn'] })).toEqual(['t1', 't2']);
      expect(await pick({ q: 'lawn' })).toEqual(['t1', 't2']);
      expect(await pick({ tags: ['ipek'] })).toEqual(['t1']);
      expect(await pick({ q: 'ipek' })).toEqual(['t1']);
      // Final sigma: however the word was capitalised or typed, on either engine.
      expect(await pick({ q: 'σισυφοσ' })).toEqual(['t1', 't2']);
      expect(await pick({ q: 'ΣΙΣΥΦΟΣ' })).toEqual(['t1', 't2']);
      expect(await pick({ colors: ['Σμαραγδι'] })).toEqual(['t1', 't2']);
      expect(await pick({ manufacturers: ['FINE HOUSE'] })).toEqual(['t1', 't2']);
      // One option per value however it is spelled, counting both products.
      const { facets } = await facetCounts(store.handle.db, NONE);
      expect(facets.tag.filter((o) => o.value.toLowerCase().endsWith('awn'))).toHaveLength(1);
      expect(facets.tag).toContainEqual({ value: 'lawn', count: 2 });
      expect(facets.manufacturer).toContainEqual({ value: 'Fine House', count: 2 });
    } finally {
      await store.handle.db.deleteFrom('products').where('id', 'in', ['t1', 't2']).execute();
    }
  });
});

describe('migration 0011', () => {
  let dir: string;
  let handle: DatabaseHandle;
  afterEach(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const migrateTo = async (name: string) => {
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
    const result = await migrator.migrateTo(name);
    if (result.error) throw result.error;
  };
  // In SQL: the schema of migration 0011 predates stock, which the snapshot reads.
  const found = async (q: string) =>
    (
      await searchBySql(
        handle.db,
        { ...NONE, q },
        { sort: 'relevance', offset: 0, limit: 48, rankWindow: 5_000 },
      )
    ).ids;
  const searchRowids = async () =>
    handle.db.selectFrom('product_search_ids').select(['rowid', 'product_id']).orderBy('rowid').execute();

  it('indexes an existing catalogue again, each product under its own search rowid', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'store-fold-'));
    handle = openDatabase(databaseFile(dir));
    await migrateTo('2026-11-22T0010-reindex-on-real-changes');
    await insertProducts(handle.db, [
      { id: 'a', title: 'ﬁne silk', tags: '["ＬＡＷＮ"]' },
      { id: 'b', title: 'İstanbul shawl' },
      { id: 'c', title: 'Plain kurta', tags: '["lawn"]' },
    ]);
    // A later save re-indexes 'a' under a newer rowid: the migration must keep that order.
    await handle.db.updateTable('products').set({ description: 'Soft.' }).where('id', '=', 'a').execute();
    const before = await searchRowids();
    expect(await found('fine')).toEqual([]);

    await migrateTo('2026-11-22T0011-search-fold');
    expect(await found('fine')).toEqual(['a']);
    expect(await found('istanbul')).toEqual(['b']);
    expect(await searchRowids()).toEqual(before);
    const lawn = await handle.db
      .selectFrom('product_facets')
      .select('product_id')
      .where('kind', '=', 'tag')
      .where('value_key', '=', 'lawn')
      .orderBy('product_id')
      .execute();
    expect(lawn.map((r) => r.product_id)).toEqual(['a', 'c']);

    // Down restores 0010's index (the query is still folded, so the ligature no longer matches).
    await migrateTo('2026-11-22T0010-reindex-on-real-changes');
    expect(await found('fine')).toEqual([]);
    expect(await found('plain')).toEqual(['c']);
    expect(await searchRowids()).toEqual(before);
  });

  it('refuses product text written by a connection without search_fold, instead of indexing it unfolded', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'store-fold-'));
    handle = openDatabase(databaseFile(dir));
    await migrateTo('2026-11-22T0011-search-fold');
    await insertProducts(handle.db, [{ id: 'p1', title: 'ﬁne silk' }]);
    const other = new SQLite(databaseFile(dir));
    try {
      const row = productRow({ id: 'p2', title: 'ﬂat vest' });
      const columns = Object.keys(row);
      const insert = `INSERT INTO products (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;
      expect(() => other.prepare(insert).run(row)).toThrow(/no such function: search_fold/);
      expect(() => other.prepare("UPDATE products SET title = 'x' WHERE id = 'p1'").run()).toThrow(
        /no such function: search_fold/,
      );
      // Writes that touch no indexed text still work from such a connection.
      other.prepare("UPDATE products SET price_minor = 1 WHERE id = 'p1'").run();
      expect(await found('fine')).toEqual(['p1']);
      other.prepare("DELETE FROM products WHERE id = 'p1'").run();
      expect(await found('fine')).toEqual([]);
    } finally {
      other.close();
    }
  });
});
