import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { postgresMigrations } from '../../migrations/postgres/index.js';
import {
  openThrowawayPostgres,
  openThrowawaySqlite,
  type ThrowawayStore,
} from '../test-support/throwaway-databases.js';

/**
 * The decimal page order migration on a store with products, their media, stock and search rows: every row
 * and every link stays, page orders keep their values, and 2.5 can then be stored and sorts between 2 and 3.
 */
type Engine = {
  name: string;
  list: typeof migrations;
  before: string;
  open(): Promise<ThrowawayStore>;
};

const engines: Engine[] = [
  {
    name: 'SQLite',
    list: migrations,
    before: '2026-11-27T0025-stock-alert-emails',
    async open() {
      return openThrowawaySqlite('store-page-order');
    },
  },
  {
    name: 'PostgreSQL',
    list: postgresMigrations,
    before: '2026-11-27T0014-stock-alert-emails',
    open: () => openThrowawayPostgres(2),
  },
];

const NOW = '2026-01-01T00:00:00.000Z';

describe.each(engines)('the decimal page order migration on $name', (engine) => {
  let store: ThrowawayStore | null = null;
  afterEach(async () => {
    await store?.close();
    store = null;
  });

  it('keeps every product, link and page order, then stores and sorts 2.5 between 2 and 3', async () => {
    store = await engine.open();
    const { db } = store;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => engine.list } });
    expect((await migrator.migrateTo(engine.before)).error).toBeUndefined();
    // Written as the schema then stood (plain SQL: the app's types already know the new column).
    for (const [id, order] of [
      ['k3', 3],
      ['k2', 2],
      ['k999', 999],
    ] as const) {
      await sql`INSERT INTO products (id, title, slug, description, sku, price_minor, page_order, created_at, updated_at)
        VALUES (${id}, ${`Lawn Kurta ${id}`}, ${id}, 'Lawn', ${`SKU-${id}`}, 8500, ${order}, ${NOW}, ${NOW})`.execute(
        db,
      );
    }
    await sql`INSERT INTO media (id, product_id, url, file_name, media_type, display_order, created_at, updated_at)
      VALUES ('m1', 'k2', 'https://img.example.com/a.jpg', 'a.jpg', 'image', 0, ${NOW}, ${NOW})`.execute(db);
    await sql`INSERT INTO size_stock (product_id, size, on_hand, reserved) VALUES ('k2', 'M', 4, 0)`.execute(
      db,
    );
    const countsOf = async () =>
      (
        await sql<{ p: number | string; m: number | string; s: number | string }>`
          SELECT (SELECT count(*) FROM products) AS p, (SELECT count(*) FROM media) AS m,
            (SELECT count(*) FROM size_stock) AS s`.execute(db)
      ).rows.map((r) => [Number(r.p), Number(r.m), Number(r.s)])[0];
    // SQLite builds the table again: its indexes and triggers (search, change log, revision) must come back.
    const dependents = async () =>
      engine.name === 'SQLite'
        ? (
            await sql<{ name: string; sql: string }>`
              SELECT name, sql FROM sqlite_schema
              WHERE tbl_name = 'products' AND type IN ('index', 'trigger') ORDER BY name`.execute(db)
          ).rows
        : [];
    expect(await countsOf()).toEqual([3, 1, 1]);
    const before = await dependents();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await countsOf()).toEqual([3, 1, 1]);
    expect(await dependents()).toEqual(before);

    await sql`INSERT INTO products (id, title, slug, description, sku, price_minor, page_order, created_at, updated_at)
      VALUES ('k25', 'Lawn Kurta k25', 'k25', 'Lawn', 'SKU-k25', 8500, 2.5, ${NOW}, ${NOW})`.execute(db);
    if (engine.name === 'SQLite') {
      // The search trigger, made again, indexed the new product.
      const indexed = await sql`SELECT 1 FROM product_search_ids WHERE product_id = 'k25'`.execute(db);
      expect(indexed.rows).toHaveLength(1);
    }
    const ordered = (
      await sql<{
        id: string;
        page_order: number;
      }>`SELECT id, page_order FROM products ORDER BY page_order, id`.execute(db)
    ).rows.map((r) => [r.id, Number(r.page_order)]);
    expect(ordered).toEqual([
      ['k2', 2],
      ['k25', 2.5],
      ['k3', 3],
      ['k999', 999],
    ]);
    // The links still hold: deleting a product takes its media and stock with it.
    await sql`DELETE FROM products WHERE id = 'k2'`.execute(db);
    expect(await countsOf()).toEqual([3, 0, 0]);
  });
});
