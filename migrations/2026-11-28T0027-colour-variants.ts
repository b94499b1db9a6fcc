import { type Kysely, sql } from 'kysely';
import { colourKey, colourSlug, tidyColourName } from '../src/shared/colours.js';

// Frozen once landed: add a new migration instead of editing this one.

/**
 * Colour variants (decision 0036). A product's colours become variants (products.colour_options, the colour
 * names staying in products.colors for the search triggers), and stock, holds and back-in-stock wishes gain
 * the colour they are of: '' is "all colours", the pool a colour without a count of its own draws from, so
 * every existing row keeps its meaning. A product with exactly one colour has its stock, holds and wishes
 * moved onto that colour (the same units, now named). Order lines gain the colour that was bought.
 * SQLite changes a primary key or a UNIQUE only by building the table again: size_stock and stock_alerts are
 * made again with their triggers and indexes; nothing refers to either.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE products ADD COLUMN colour_options TEXT NOT NULL DEFAULT '[]'
    CHECK (json_valid(colour_options) AND json_type(colour_options) = 'array')`.execute(db);
  await sql`ALTER TABLE order_lines ADD COLUMN colour TEXT`.execute(db);
  await sql`ALTER TABLE stock_reservations ADD COLUMN colour TEXT NOT NULL DEFAULT ''`.execute(db);

  await sql`
    CREATE TABLE size_stock_new (
      product_id TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      colour TEXT NOT NULL DEFAULT '' CHECK (length(colour) <= 200),
      size TEXT NOT NULL CHECK (length(size) BETWEEN 1 AND 20),
      on_hand INTEGER NOT NULL CHECK (on_hand BETWEEN 0 AND 1000000),
      reserved INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0),
      PRIMARY KEY (product_id, colour, size)
    ) STRICT
  `.execute(db);
  await sql`INSERT INTO size_stock_new (product_id, colour, size, on_hand, reserved)
    SELECT product_id, '', size, on_hand, reserved FROM size_stock`.execute(db);
  await sql`DROP TABLE size_stock`.execute(db);
  await sql`ALTER TABLE size_stock_new RENAME TO size_stock`.execute(db);
  await sql`CREATE INDEX size_stock_sold_out ON size_stock (product_id, colour, size) WHERE on_hand <= reserved`.execute(
    db,
  );
  await sizeStockTriggers(db);

  await sql`
    CREATE TABLE stock_alerts_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      colour TEXT NOT NULL DEFAULT '' CHECK (length(colour) <= 200),
      size TEXT NOT NULL,
      email TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
      created_at TEXT NOT NULL,
      notified_at TEXT,
      UNIQUE (product_id, colour, size, email)
    ) STRICT
  `.execute(db);
  await sql`INSERT INTO stock_alerts_new (id, product_id, colour, size, email, created_at, notified_at)
    SELECT id, product_id, '', size, email, created_at, notified_at FROM stock_alerts`.execute(db);
  await sql`DROP TABLE stock_alerts`.execute(db);
  await sql`ALTER TABLE stock_alerts_new RENAME TO stock_alerts`.execute(db);
  await sql`CREATE INDEX stock_alerts_waiting ON stock_alerts (notified_at, product_id, size)`.execute(db);

  await colourVariantsFromLists(db);
}

const BUMP = `INSERT INTO app_meta (key, value) VALUES ('storefront_revision', '1')
  ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;`;

/** As migration 0020 made them: the revision moves when a size turns sold out or back. */
async function sizeStockTriggers(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`CREATE TRIGGER size_stock_revision_insert AFTER INSERT ON size_stock BEGIN ${BUMP} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER size_stock_revision_delete AFTER DELETE ON size_stock BEGIN ${BUMP} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER size_stock_revision_update AFTER UPDATE ON size_stock
    WHEN (old.on_hand > old.reserved) <> (new.on_hand > new.reserved) BEGIN ${BUMP} END`)
    .execute(db);
}

type ProductColours = { id: string; colors: string };

/**
 * Every product's colour list made its variants, on either engine (plain SQL and the shared colour rules in
 * JavaScript): each name a variant sharing the product's photos and price; a second spelling of one colour
 * (which the old list could hold: "Sea Green" and "sea-green") is dropped. What was done is written to the
 * application log, where the owner reads it.
 */
export async function colourVariantsFromLists(db: Kysely<unknown>): Promise<void> {
  const rows = (await sql<ProductColours>`SELECT id, colors FROM products ORDER BY id`.execute(db)).rows;
  let withColours = 0;
  let moved = 0;
  let shared = 0;
  let dropped = 0;
  for (const row of rows) {
    const names = namesOf(row.colors);
    const kept: string[] = [];
    const seen = new Set<string>();
    for (const raw of names) {
      const name = tidyColourName(raw);
      const slug = colourSlug(name);
      if (name === '' || slug === '' || seen.has(slug)) {
        if (name !== '') dropped += 1;
        continue;
      }
      seen.add(slug);
      kept.push(name);
    }
    if (kept.length === 0 && names.length === 0) continue;
    const options = kept.map((name) => ({
      name,
      hex: null,
      skuSuffix: null,
      priceMinor: null,
      images: [],
      sizeDetail: null,
    }));
    await sql`UPDATE products SET colour_options = ${JSON.stringify(options)}, colors = ${JSON.stringify(kept)}
      WHERE id = ${row.id}`.execute(db);
    if (kept.length === 0) continue;
    withColours += 1;
    const [only] = kept;
    if (kept.length === 1 && only !== undefined) {
      const key = colourKey(only);
      const stock =
        await sql`UPDATE size_stock SET colour = ${key} WHERE product_id = ${row.id} AND colour = ''`.execute(
          db,
        );
      await sql`UPDATE stock_reservations SET colour = ${key} WHERE product_id = ${row.id} AND colour = ''`.execute(
        db,
      );
      await sql`UPDATE stock_alerts SET colour = ${key} WHERE product_id = ${row.id} AND colour = ''`.execute(
        db,
      );
      if (Number(stock.numAffectedRows ?? 0) > 0) moved += 1;
    } else {
      const stock = await sql<{
        n: number;
      }>`SELECT count(*) AS n FROM size_stock WHERE product_id = ${row.id}`.execute(db);
      if (Number(stock.rows[0]?.n ?? 0) > 0) shared += 1;
    }
  }
  // A store without colours has nothing to be told.
  if (withColours === 0 && dropped === 0) return;
  const now = new Date().toISOString();
  const message =
    `Colour variants: ${withColours} products' colours became colour variants sharing their photos; ` +
    `${moved} with one colour had their stock per size moved onto it; ${shared} with several colours keep ` +
    `their stock per size for all colours${dropped > 0 ? `; ${dropped} repeated colour names were dropped` : ''}.`;
  const details = JSON.stringify({ products: rows.length, withColours, moved, shared, dropped });
  await sql`INSERT INTO logs (time, level, source, message, details, repeat_count, last_time)
    VALUES (${now}, 'info', 'migration', ${message}, ${details}, 1, ${now})`.execute(db);
}

function namesOf(text: unknown): string[] {
  try {
    const value: unknown = typeof text === 'string' ? JSON.parse(text) : text;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE size_stock_old (
      product_id TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      size TEXT NOT NULL CHECK (length(size) BETWEEN 1 AND 20),
      on_hand INTEGER NOT NULL CHECK (on_hand BETWEEN 0 AND 1000000),
      reserved INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0),
      PRIMARY KEY (product_id, size)
    ) STRICT`.execute(db);
  // One row per size: all colours' where there is one, else the first colour's.
  await sql`INSERT OR IGNORE INTO size_stock_old SELECT product_id, size, on_hand, reserved FROM size_stock
    ORDER BY product_id, size, colour`.execute(db);
  await sql`DROP TABLE size_stock`.execute(db);
  await sql`ALTER TABLE size_stock_old RENAME TO size_stock`.execute(db);
  await sql`CREATE INDEX size_stock_sold_out ON size_stock (product_id, size) WHERE on_hand <= reserved`.execute(
    db,
  );
  await sizeStockTriggers(db);
  await sql`CREATE TABLE stock_alerts_old (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      size TEXT NOT NULL,
      email TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
      created_at TEXT NOT NULL,
      notified_at TEXT,
      UNIQUE (product_id, size, email)
    ) STRICT`.execute(db);
  await sql`INSERT OR IGNORE INTO stock_alerts_old SELECT id, product_id, size, email, created_at, notified_at
    FROM stock_alerts ORDER BY id`.execute(db);
  await sql`DROP TABLE stock_alerts`.execute(db);
  await sql`ALTER TABLE stock_alerts_old RENAME TO stock_alerts`.execute(db);
  await sql`CREATE INDEX stock_alerts_waiting ON stock_alerts (notified_at, product_id, size)`.execute(db);
  await sql`ALTER TABLE stock_reservations DROP COLUMN colour`.execute(db);
  await sql`ALTER TABLE order_lines DROP COLUMN colour`.execute(db);
  await sql`ALTER TABLE products DROP COLUMN colour_options`.execute(db);
}
