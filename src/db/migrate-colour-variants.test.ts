import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { postgresMigrations } from '../../migrations/postgres/index.js';
import { colourOptionsOf } from '../db/json-columns.js';
import { findAdminProduct } from '../modules/products/products.repository.js';
import { releaseReservations } from '../modules/stock/reservations.js';
import { photosForColour } from '../shared/colours.js';
import {
  openThrowawayPostgres,
  openThrowawaySqlite,
  type ThrowawayStore,
} from '../test-support/throwaway-databases.js';

/**
 * The colour variants migration (0027, PostgreSQL 0016) on a store as it stood before it: products with no,
 * one and two colours (one of them listing a colour twice in two spellings), stock per size, a held
 * checkout, a back-in-stock wish and a paid order. Colours become variants sharing the product's photos; a
 * single colour's stock, hold and wish move onto it; several colours keep their stock for all colours ('');
 * nothing is lost, and the owner is told in the log.
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
    before: '2026-11-28T0026-decimal-page-order',
    async open() {
      return openThrowawaySqlite('store-colours');
    },
  },
  {
    name: 'PostgreSQL',
    list: postgresMigrations,
    before: '2026-11-28T0015-decimal-page-order',
    open: () => openThrowawayPostgres(2),
  },
];

const NOW = '2026-01-01T00:00:00.000Z';
const LATER = '2099-01-01T00:00:00.000Z';

describe.each(engines)('the colour variants migration on $name', (engine) => {
  let store: ThrowawayStore | null = null;
  afterEach(async () => {
    await store?.close();
    store = null;
  });

  async function openBefore() {
    store = await engine.open();
    const { db } = store;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => engine.list } });
    expect((await migrator.migrateTo(engine.before)).error).toBeUndefined();
    return { db, migrator };
  }

  /** A product as the schema stood before colour variants (plain SQL: the app's types know the new one). */
  const product = (db: ThrowawayStore['db'], id: string, colors: string[]) =>
    sql`INSERT INTO products (id, title, slug, description, sku, price_minor, colors, created_at, updated_at)
      VALUES (${id}, ${`Lawn Kurta ${id}`}, ${id}, 'Lawn', ${`SKU-${id}`}, 8500, ${JSON.stringify(colors)},
        ${NOW}, ${NOW})`.execute(db);

  const rows = async <T>(db: ThrowawayStore['db'], query: ReturnType<typeof sql<T>>) =>
    (await query.execute(db)).rows;

  it('turns colours into variants sharing photos, moves one colour’s stock, hold and wish onto it, and loses nothing', async () => {
    const { db, migrator } = await openBefore();
    await product(db, 'plain', []);
    await product(db, 'teal', ['Teal']);
    await product(db, 'two', ['Teal', 'Maroon']);
    await product(db, 'twice', ['Sea Green', ' sea-green ', 'SEA GREEN']);
    for (const [id, url] of [
      ['teal', 'https://img.example.com/teal-front.jpg'],
      ['teal', 'https://img.example.com/teal-back.jpg'],
      ['two', 'https://img.example.com/two.jpg'],
    ] as const) {
      await sql`INSERT INTO media (id, product_id, url, file_name, media_type, display_order, created_at, updated_at)
        VALUES (${url}, ${id}, ${url}, 'a.jpg', 'image', 0, ${NOW}, ${NOW})`.execute(db);
    }
    const stock = (id: string, size: string, onHand: number, reserved: number) =>
      sql`INSERT INTO size_stock (product_id, size, on_hand, reserved)
        VALUES (${id}, ${size}, ${onHand}, ${reserved})`.execute(db);
    await stock('plain', 'M', 4, 0);
    await stock('teal', 'M', 3, 2);
    await stock('teal', 'L', 0, 0);
    await stock('two', 'M', 6, 0);
    await stock('twice', 'S', 1, 0);
    await sql`INSERT INTO orders (id, number, status, payment_mode, currency, subtotal_minor, created_at, updated_at)
      VALUES ('o-held', 1, 'pending', 'demo', 'usd', 17000, ${NOW}, ${NOW}),
        ('o-paid', 2, 'paid', 'demo', 'usd', 8500, ${NOW}, ${NOW})`.execute(db);
    await sql`INSERT INTO order_lines (order_id, product_id, title, size, quantity, unit_price_minor, line_total_minor)
      VALUES ('o-held', 'teal', 'Lawn Kurta teal', 'M', 2, 8500, 17000),
        ('o-paid', 'two', 'Lawn Kurta two', 'M', 1, 8500, 8500)`.execute(db);
    await sql`INSERT INTO stock_reservations (order_id, product_id, size, quantity, state, expires_at, created_at)
      VALUES ('o-held', 'teal', 'M', 2, 'held', ${LATER}, ${NOW}),
        ('o-paid', 'two', 'M', 1, 'sold', ${LATER}, ${NOW})`.execute(db);
    await sql`INSERT INTO stock_alerts (product_id, size, email, created_at, notified_at)
      VALUES ('teal', 'L', 'ayesha@example.com', ${NOW}, NULL),
        ('two', 'M', 'bilal@example.com', ${NOW}, NULL)`.execute(db);
    const counts = async () =>
      (
        await rows<Record<string, number | string>>(
          db,
          sql`SELECT (SELECT count(*) FROM products) AS products, (SELECT count(*) FROM media) AS media,
            (SELECT count(*) FROM size_stock) AS stock, (SELECT count(*) FROM orders) AS orders,
            (SELECT count(*) FROM order_lines) AS lines, (SELECT count(*) FROM stock_reservations) AS holds,
            (SELECT count(*) FROM stock_alerts) AS wishes`,
        )
      ).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])))[0];
    const before = await counts();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await counts()).toEqual(before);

    // Colours are variants with nothing of their own yet: every photo is every colour's.
    const options = Object.fromEntries(
      (
        await rows<{ id: string; colour_options: string; colors: string }>(
          db,
          sql`SELECT id, colour_options, colors FROM products ORDER BY id`,
        )
      ).map((r) => [
        r.id,
        { names: JSON.parse(r.colors) as string[], options: colourOptionsOf(r.colour_options) },
      ]),
    );
    expect(options.plain).toEqual({ names: [], options: [] });
    expect(options.teal?.names).toEqual(['Teal']);
    expect(options.teal?.options).toEqual([
      { name: 'Teal', hex: null, skuSuffix: null, priceMinor: null, images: [], sizeDetail: null },
    ]);
    expect(options.two?.options.map((c) => c.name)).toEqual(['Teal', 'Maroon']);
    // One colour spelled three ways is one colour, kept as first written.
    expect(options.twice?.names).toEqual(['Sea Green']);
    const photos = [
      { url: 'https://img.example.com/teal-front.jpg' },
      { url: 'https://img.example.com/teal-back.jpg' },
    ];
    expect(photosForColour(photos, options.teal?.options ?? [], options.teal?.options[0])).toEqual(photos);

    const stockRows = await rows<{
      product_id: string;
      colour: string;
      size: string;
      on_hand: number;
      reserved: number;
    }>(
      db,
      sql`SELECT product_id, colour, size, on_hand, reserved FROM size_stock ORDER BY product_id, colour, size`,
    );
    expect(
      stockRows.map((r) => [r.product_id, r.colour, r.size, Number(r.on_hand), Number(r.reserved)]),
    ).toEqual([
      ['plain', '', 'M', 4, 0],
      ['teal', 'teal', 'L', 0, 0],
      ['teal', 'teal', 'M', 3, 2],
      ['twice', 'sea green', 'S', 1, 0],
      ['two', '', 'M', 6, 0],
    ]);
    const holds = await rows<{ order_id: string; colour: string; state: string }>(
      db,
      sql`SELECT order_id, colour, state FROM stock_reservations ORDER BY order_id`,
    );
    expect(holds).toEqual([
      { order_id: 'o-held', colour: 'teal', state: 'held' },
      { order_id: 'o-paid', colour: '', state: 'sold' },
    ]);
    const wishes = await rows<{ product_id: string; colour: string; size: string; email: string }>(
      db,
      sql`SELECT product_id, colour, size, email FROM stock_alerts ORDER BY product_id`,
    );
    expect(wishes).toEqual([
      { product_id: 'teal', colour: 'teal', size: 'L', email: 'ayesha@example.com' },
      { product_id: 'two', colour: '', size: 'M', email: 'bilal@example.com' },
    ]);
    // Orders keep what they were: no colour was chosen when they were bought.
    const lines = await rows<{ order_id: string; colour: string | null }>(
      db,
      sql`SELECT order_id, colour FROM order_lines ORDER BY order_id`,
    );
    expect(lines).toEqual([
      { order_id: 'o-held', colour: null },
      { order_id: 'o-paid', colour: null },
    ]);

    // The app reads the migrated product: the single colour's stock is that colour's.
    const teal = await findAdminProduct(db, 'teal');
    expect(teal?.stock).toEqual({});
    expect(teal?.colourStock).toEqual({ Teal: { L: 0, M: 3 } });
    const two = await findAdminProduct(db, 'two');
    expect([two?.stock, two?.colourStock]).toEqual([{ M: 6 }, {}]);

    // The moved hold, released, gives its units back to the row they came from.
    expect(await releaseReservations(db, 'o-held')).toBe(1);
    const tealM = await rows<{ on_hand: number; reserved: number }>(
      db,
      sql`SELECT on_hand, reserved FROM size_stock WHERE product_id = 'teal' AND size = 'M'`,
    );
    expect(tealM.map((r) => [Number(r.on_hand), Number(r.reserved)])).toEqual([[3, 0]]);

    const logs = await rows<{ level: string; source: string; message: string; details: unknown }>(
      db,
      sql`SELECT level, source, message, details FROM logs WHERE message LIKE 'Colour variants%'`,
    );
    expect(logs.map((l) => [l.level, l.source, l.message])).toEqual([
      [
        'info',
        'migration',
        "Colour variants: 3 products' colours became colour variants sharing their photos; 2 with one colour " +
          'had their stock per size moved onto it; 1 with several colours keep their stock per size for all ' +
          'colours; 2 repeated colour names were dropped.',
      ],
    ]);
  });

  it('writes no log line on a store without colours, and goes back down keeping one count per size', async () => {
    const { db, migrator } = await openBefore();
    await product(db, 'plain', []);
    await sql`INSERT INTO size_stock (product_id, size, on_hand, reserved) VALUES ('plain', 'M', 4, 1)`.execute(
      db,
    );
    await sql`INSERT INTO stock_alerts (product_id, size, email, created_at, notified_at)
      VALUES ('plain', 'M', 'ayesha@example.com', ${NOW}, NULL)`.execute(db);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const logs = await rows(db, sql`SELECT 1 FROM logs WHERE message LIKE 'Colour variants%'`);
    expect(logs).toEqual([]);

    // After it: a colour product with all colours' and a colour's own count, and a wish of each.
    await product(db, 'two', ['Teal', 'Maroon']);
    await sql`INSERT INTO size_stock (product_id, colour, size, on_hand, reserved)
      VALUES ('two', '', 'M', 6, 0), ('two', 'teal', 'M', 2, 0), ('two', 'teal', 'S', 1, 0)`.execute(db);
    await sql`INSERT INTO stock_alerts (product_id, colour, size, email, created_at, notified_at)
      VALUES ('two', '', 'M', 'bilal@example.com', ${NOW}, NULL),
        ('two', 'teal', 'M', 'bilal@example.com', ${NOW}, NULL)`.execute(db);

    expect((await migrator.migrateTo(engine.before)).error).toBeUndefined();
    const stockRows = await rows<{ product_id: string; size: string; on_hand: number; reserved: number }>(
      db,
      sql`SELECT product_id, size, on_hand, reserved FROM size_stock ORDER BY product_id, size`,
    );
    expect(stockRows.map((r) => [r.product_id, r.size, Number(r.on_hand), Number(r.reserved)])).toEqual([
      ['plain', 'M', 4, 1],
      ['two', 'M', 6, 0],
      ['two', 'S', 1, 0],
    ]);
    const wishes = await rows<{ product_id: string; size: string; email: string }>(
      db,
      sql`SELECT product_id, size, email FROM stock_alerts ORDER BY product_id`,
    );
    expect(wishes).toEqual([
      { product_id: 'plain', size: 'M', email: 'ayesha@example.com' },
      { product_id: 'two', size: 'M', email: 'bilal@example.com' },
    ]);
    // And up again.
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });
});
