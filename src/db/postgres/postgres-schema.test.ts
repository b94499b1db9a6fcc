import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresMigrations } from '../../../migrations/postgres/index.js';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../test-support/postgres.js';
import { migrateToLatest } from '../migrate.js';
import { openPostgres, type PostgresHandle } from './connect-postgres.js';

const run = promisify(execFile);
const iso = '2026-11-25T10:00:00.000Z';
const product = (id: string, sku: string) => ({
  id,
  title: id,
  description: '',
  manufacturer: '',
  sku,
  price_minor: 1,
  currency: 'usd',
  sizes: '[]',
  size_detail: '{}',
  colors: '[]',
  tags: '[]',
  images: '[]',
  slug: '',
  created_at: iso,
  updated_at: iso,
});

describe('the PostgreSQL schema, on a real server', () => {
  let database: ThrowawayDatabase;
  let store: PostgresHandle;

  beforeAll(async () => {
    database = await createThrowawayDatabase();
    store = openPostgres(database.url, 4);
    await migrateToLatest(store.db, 'postgres');
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('applies every migration once; a second run finds nothing to do', async () => {
    const again = await migrateToLatest(store.db, 'postgres');
    expect(again.results).toEqual([]);
    const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(
      store.db,
    );
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(postgresMigrations));
  });

  it('reads rows back in the shapes the SQLite driver gives: numbers, 0/1, ISO text, JSON text', async () => {
    await store.db
      .insertInto('products')
      .values({
        ...product('p1', 'SKU-1'),
        title: 'Kúrta Élan',
        sku: 'SKU-1',
        price_minor: 8900,
        sizes: '["S","m"]',
        colors: '["Ivory"]',
        tags: '["Eid","Lawn"]',
        description: 'Embroidered',
        manufacturer: 'Maria B',
        created_at: iso,
        updated_at: iso,
      })
      .execute();
    const p = await store.db
      .selectFrom('products')
      .selectAll()
      .where('id', '=', 'p1')
      .executeTakeFirstOrThrow();
    expect(p.price_minor).toBe(8900);
    expect(p.created_at).toBe(iso);
    expect(JSON.parse(p.sizes)).toEqual(['S', 'm']);
    expect(p.page_order).toBe(999);
    await store.db
      .insertInto('settings')
      .values({
        id: 1,
        store_name: 'Shop',
        tagline: '',
        about_text: '',
        disclaimer: '',
        credits: '[]',
        banner_active: 1,
        updated_at: iso,
      })
      .onConflict((oc) => oc.column('id').doUpdateSet({ banner_active: 1 }))
      .execute();
    const s = await store.db
      .selectFrom('settings')
      .select(['banner_active', 'shipping_countries'])
      .executeTakeFirstOrThrow();
    expect(s.banner_active).toBe(1);
    expect(JSON.parse(s.shipping_countries)).toContain('PK');
  });

  it('keeps the search document, facets, change log and storefront revision as the SQLite triggers do', async () => {
    const revision = async () =>
      Number(
        (
          await store.db
            .selectFrom('app_meta')
            .select('value')
            .where('key', '=', 'storefront_revision')
            .executeTakeFirst()
        )?.value ?? 0,
      );
    const before = await revision();
    const seqBefore = await store.db
      .selectFrom('catalogue_changes')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    await store.db
      .updateTable('products')
      .set({ colors: '["Ivory","Rosé"]' })
      .where('id', '=', 'p1')
      .execute();
    expect(await revision()).toBeGreaterThan(before);
    const seqAfter = await store.db
      .selectFrom('catalogue_changes')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(seqAfter.n)).toBeGreaterThan(Number(seqBefore.n));

    const facets = await store.db
      .selectFrom('product_facets')
      .select(['kind', 'value_key', 'value'])
      .where('product_id', '=', 'p1')
      .orderBy('kind')
      .orderBy('value_key')
      .execute();
    expect(facets).toEqual([
      { kind: 'color', value_key: 'ivory', value: 'Ivory' },
      { kind: 'color', value_key: 'rosé', value: 'Rosé' },
      { kind: 'manufacturer', value_key: 'maria b', value: 'Maria B' },
      { kind: 'size', value_key: 'M', value: 'M' },
      { kind: 'size', value_key: 'S', value: 'S' },
      { kind: 'tag', value_key: 'eid', value: 'Eid' },
      { kind: 'tag', value_key: 'lawn', value: 'Lawn' },
    ]);

    // Prefix matching, accents and compatibility forms folded away, as FTS5 does on SQLite.
    const find = async (query: string) =>
      (
        await sql<{ product_id: string }>`SELECT i.product_id FROM product_search s
          JOIN product_search_ids i ON i.rowid = s.rowid
          WHERE s.document @@ to_tsquery('simple', ${query})`.execute(store.db)
      ).rows.map((r) => r.product_id);
    expect(await find('kurt:*')).toEqual(['p1']);
    expect(await find('elan & lawn')).toEqual(['p1']);
    expect(await find('embroid:*')).toEqual(['p1']);
    expect(await find('chiffon')).toEqual([]);

    await store.db.deleteFrom('products').where('id', '=', 'p1').execute();
    expect(await find('kurt:*')).toEqual([]);
    const left = await store.db
      .selectFrom('product_facets')
      .selectAll()
      .where('product_id', '=', 'p1')
      .execute();
    expect(left).toEqual([]);
  });

  it('refuses what SQLite refuses: a second SKU that differs only in case, a bad JSON shape', async () => {
    const row = product;
    await store.db.insertInto('products').values(row('a', 'Dup-1')).execute();
    await expect(store.db.insertInto('products').values(row('b', 'dup-1')).execute()).rejects.toThrow(
      /products_sku_unique/,
    );
    await expect(
      store.db
        .insertInto('products')
        .values({ ...row('c', 'x'), tags: '{"not":"an array"}' })
        .execute(),
    ).rejects.toThrow(/check constraint/);
  });
});

describe('the pool when the server drops its idle connections', () => {
  it('keeps the process up and answers the next query on a new connection', async () => {
    const database = await createThrowawayDatabase();
    const store = openPostgres(database.url, 2);
    try {
      await sql`SELECT 1`.execute(store.db);
      // What a server restart or failover does to the pool's idle connections.
      const admin = openPostgres(database.url.replace(/\/[^/]+$/, '/postgres'), 1);
      await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = ${database.name} AND pid <> pg_backend_pid()`.execute(admin.db);
      await admin.close();
      await new Promise((r) => setTimeout(r, 200));
      const again = await sql<{ one: number }>`SELECT 1 AS one`.execute(store.db);
      expect(again.rows[0]?.one).toBe(1);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

describe('two store processes starting together on an empty PostgreSQL database', () => {
  it('migrate it once: one applies the migrations, the other finds them done', async () => {
    const database = await createThrowawayDatabase();
    try {
      const child = () =>
        run(
          process.execPath,
          ['--import', 'tsx', 'src/test-support/postgres-migrate-child.ts', database.url],
          {
            timeout: 60_000,
          },
        );
      const [a, b] = await Promise.all([child(), child()]);
      const applied = [a, b].map((r) => JSON.parse(r.stdout.trim().split('\n').pop() ?? '[]') as string[]);
      expect(applied.flat().sort()).toEqual(Object.keys(postgresMigrations).sort());
      expect(applied.some((names) => names.length === 0)).toBe(true);
    } finally {
      await database.drop();
    }
  }, 90_000);
});
