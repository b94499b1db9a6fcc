import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { insertProducts } from '../test-support/fixtures.js';
import { type DatabaseHandle, databaseFile, openDatabase } from './connect.js';
import { migrateToLatest } from './migrate.js';

/**
 * Migration 0012 on a store that already sold under duplicate SKUs: it must start, keep every product, give
 * the oldest its SKU and the later ones a free "-n" suffix, and say so (decision 0012).
 */

const BEFORE = '2026-11-22T0011-search-fold';
const day = (d: number) => `2026-01-0${d}T00:00:00.000Z`;
const long = `L${'x'.repeat(99)}`;

describe('migration 0012 (unique SKU) on a database with duplicates', () => {
  let dir: string;
  let handle: DatabaseHandle;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'store-sku-'));
    handle = openDatabase(databaseFile(dir));
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
    const upTo = await migrator.migrateTo(BEFORE);
    expect(upTo.error).toBeUndefined();
    await insertProducts(handle.db, [
      { id: 'a', title: 'Oldest Kurta', sku: 'ZA-1', created_at: day(1) },
      { id: 'b', title: 'Lower Case Copy', sku: 'za-1', created_at: day(2) },
      { id: 'c', title: 'Already Suffixed', sku: 'ZA-1-2', created_at: day(3) },
      // Same moment as d: the id decides (c2 < d).
      { id: 'd', title: 'Third Copy', sku: 'ZA-1', created_at: day(4) },
      { id: 'c2', title: 'Tie Winner', sku: 'TIE', created_at: day(4) },
      { id: 'd2', title: 'Tie Loser', sku: 'tie', created_at: day(4) },
      { id: 'e', title: 'No SKU', sku: '', created_at: day(5) },
      { id: 'f', title: 'No SKU Either', sku: '', created_at: day(6) },
      { id: 'g', title: 'Blank SKU', sku: '  ', created_at: day(6) },
      { id: 'h', title: 'Long One', sku: long, created_at: day(7) },
      { id: 'i', title: 'Long Two', sku: long, created_at: day(8) },
      { id: 'j', title: 'Unique', sku: 'U-1', created_at: day(8) },
    ]);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const skus = async () =>
    Object.fromEntries(
      (await handle.db.selectFrom('products').select(['id', 'sku']).orderBy('id').execute()).map((r) => [
        r.id,
        r.sku,
      ]),
    );

  it('starts anyway: the oldest keeps each SKU, later ones get the first free suffix, nothing is lost', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await migrateToLatest(handle.db);
    expect(await skus()).toEqual({
      a: 'ZA-1',
      b: 'za-1-3',
      c: 'ZA-1-2',
      c2: 'TIE',
      d: 'ZA-1-4',
      d2: 'tie-2',
      e: '',
      f: '',
      g: '  ',
      h: long,
      // Cut to stay within the form's 100 characters, so the product can still be saved as it is.
      i: `L${'x'.repeat(97)}-2`,
      j: 'U-1',
    });

    const report = await sql<{
      product_id: string;
      old_sku: string;
      new_sku: string;
      kept_by_product_id: string;
    }>`
      SELECT product_id, old_sku, new_sku, kept_by_product_id FROM sku_renames ORDER BY id
    `.execute(handle.db);
    expect(report.rows).toEqual([
      { product_id: 'b', old_sku: 'za-1', new_sku: 'za-1-3', kept_by_product_id: 'a' },
      { product_id: 'd', old_sku: 'ZA-1', new_sku: 'ZA-1-4', kept_by_product_id: 'a' },
      { product_id: 'd2', old_sku: 'tie', new_sku: 'tie-2', kept_by_product_id: 'c2' },
      { product_id: 'i', old_sku: long, new_sku: `L${'x'.repeat(97)}-2`, kept_by_product_id: 'h' },
    ]);
    // The owner sees each rename in the admin log, and the operator at start-up.
    const logged = await handle.db
      .selectFrom('logs')
      .select(['level', 'source', 'message'])
      .orderBy('id')
      .execute();
    expect(logged[0]).toEqual({
      level: 'warning',
      source: 'migration',
      message: 'SKU "za-1" of "Lower Case Copy" was renamed to "za-1-3": "Oldest Kurta" already used it',
    });
    expect(logged).toHaveLength(4);
    expect(warn).toHaveBeenCalledOnce();
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/4 product\(s\) shared a SKU .*\n {2}SKU "za-1" of/s);
  });

  it('then refuses a duplicate in any letter case, and still allows many products without a SKU', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await migrateToLatest(handle.db);
    await expect(insertProducts(handle.db, [{ id: 'k', sku: 'u-1' }])).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_UNIQUE',
    });
    await insertProducts(handle.db, [
      { id: 'k', sku: '' },
      { id: 'l', sku: '' },
    ]);
    expect((await skus()).l).toBe('');
  });

  it('changes nothing and says nothing on a store without duplicates', async () => {
    await handle.db.deleteFrom('products').where('id', 'not in', ['a', 'j', 'e', 'f']).execute();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await migrateToLatest(handle.db);
    expect(await skus()).toEqual({ a: 'ZA-1', e: '', f: '', j: 'U-1' });
    expect(warn).not.toHaveBeenCalled();
    expect(await handle.db.selectFrom('logs').selectAll().execute()).toEqual([]);
  });
});
