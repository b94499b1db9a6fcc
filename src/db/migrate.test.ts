import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStore, type TestStore, testEngine } from '../test-support/test-store.js';
import { migrateToLatest } from './migrate.js';

// The SQLite file's schema and settings; PostgreSQL's are in db/postgres/postgres-schema.test.ts.
describe.skipIf(testEngine === 'postgres')('migrations', () => {
  let store: TestStore;
  afterEach(async () => store.cleanup());

  it('create every table on a fresh file and are a no-op the second time', async () => {
    store = await createTestStore();
    const tables = await sql<{
      name: string;
    }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`.execute(store.handle.db);
    const names = tables.rows.map((r) => r.name);
    for (const t of ['products', 'media', 'settings', 'funny_quotes', 'version_info', 'app_meta']) {
      expect(names).toContain(t);
    }
    const again = await migrateToLatest(store.handle.db);
    expect(again.results).toEqual([]);
  });

  it('opens the database with WAL, foreign keys and a lock wait done by the driver, not by SQLite', async () => {
    store = await createTestStore();
    expect(store.handle.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.handle.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    // SQLite's busy handler would wait on the event loop; the driver waits asynchronously for 5 s instead.
    expect(store.handle.sqlite.pragma('busy_timeout', { simple: true })).toBe(0);
    expect(store.handle.reader.pragma('busy_timeout', { simple: true })).toBe(0);
    expect(store.handle.lockWait.ms).toBe(5000);
  });

  it('lets the schema refuse impossible rows', async () => {
    store = await createTestStore();
    const base = {
      id: 'p1',
      title: 'Kurta',
      slug: 'kurta',
      sku: 'SKU-1',
      price_minor: 100,
      currency: 'usd',
      created_at: '2026-11-22T10:00:00.000Z',
      updated_at: '2026-11-22T10:00:00.000Z',
      description: '',
      manufacturer: '',
      manufacturer_url: null,
      sizes: '[]',
      size_detail: '{}',
      colors: '[]',
      tags: '[]',
      image_folder: null,
      images: '[]',
      stripe_payment_link: null,
      product_link: null,
    };
    const insert = (row: Partial<typeof base>) =>
      store.handle.db
        .insertInto('products')
        .values({ ...base, ...row })
        .execute();
    await expect(insert({ price_minor: -1 })).rejects.toThrow(/CHECK/);
    await expect(insert({ currency: 'USD' })).rejects.toThrow(/CHECK/);
    await expect(insert({ sizes: 'not json' })).rejects.toThrow(/CHECK/);
    await expect(insert({ title: '' })).rejects.toThrow(/CHECK/);
    await insert({});
    await expect(
      store.handle.db
        .insertInto('media')
        .values({
          id: 'm1',
          product_id: 'missing',
          url: '/x.png',
          file_name: 'x.png',
          media_type: 'image',
          display_order: 0,
          alt_text: null,
          created_at: '2026-11-22T10:00:00.000Z',
          updated_at: '2026-11-22T10:00:00.000Z',
        })
        .execute(),
    ).rejects.toThrow(/FOREIGN KEY/);
  });
});
