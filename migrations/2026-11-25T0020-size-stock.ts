import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

const BUMP = sql.raw(`INSERT INTO app_meta (key, value) VALUES ('storefront_revision', '1')
  ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;`);

/**
 * Stock per size. A size without a row is not tracked (always available: made to order). `reserved` counts
 * the units held by open checkouts; what a shopper can buy is on_hand - reserved. The storefront revision
 * (the caches' key) moves only when a size turns sold out or back: counts alone change with every checkout.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE size_stock (
      product_id TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      size TEXT NOT NULL CHECK (length(size) BETWEEN 1 AND 20),
      on_hand INTEGER NOT NULL CHECK (on_hand BETWEEN 0 AND 1000000),
      reserved INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0),
      PRIMARY KEY (product_id, size)
    ) STRICT
  `.execute(db);
  // A checkout's hold on units of a size, until its payment (sold), or its end (released).
  await sql`
    CREATE TABLE stock_reservations (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      product_id TEXT NOT NULL,
      size TEXT NOT NULL,
      quantity INTEGER NOT NULL CHECK (quantity > 0),
      state TEXT NOT NULL CHECK (state IN ('held', 'sold', 'released')),
      expires_at TEXT NOT NULL,
      created_at TEXT NOT NULL
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX stock_reservations_held ON stock_reservations (state, expires_at)`.execute(db);
  await sql`CREATE INDEX stock_reservations_order ON stock_reservations (order_id)`.execute(db);
  // Shoppers waiting for a sold-out size: each gets one email when it is back.
  await sql`
    CREATE TABLE stock_alerts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      size TEXT NOT NULL,
      email TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
      created_at TEXT NOT NULL,
      notified_at TEXT,
      UNIQUE (product_id, size, email)
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX stock_alerts_waiting ON stock_alerts (notified_at, product_id, size)`.execute(db);
  // Set when a payment took more than was left (a race, or stock lowered under an open checkout).
  await sql`ALTER TABLE orders ADD COLUMN stock_problem TEXT`.execute(db);
  await sql`ALTER TABLE settings ADD COLUMN low_stock_threshold INTEGER NOT NULL DEFAULT 2
    CHECK (low_stock_threshold BETWEEN 0 AND 1000)`.execute(db);

  await sql`CREATE TRIGGER size_stock_revision_insert AFTER INSERT ON size_stock BEGIN ${BUMP} END`.execute(
    db,
  );
  await sql`CREATE TRIGGER size_stock_revision_delete AFTER DELETE ON size_stock BEGIN ${BUMP} END`.execute(
    db,
  );
  await sql`CREATE TRIGGER size_stock_revision_update AFTER UPDATE ON size_stock
    WHEN (old.on_hand > old.reserved) <> (new.on_hand > new.reserved) BEGIN ${BUMP} END`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['insert', 'delete', 'update'])
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(`size_stock_revision_${t}`)}`.execute(db);
  await sql`ALTER TABLE settings DROP COLUMN low_stock_threshold`.execute(db);
  await sql`ALTER TABLE orders DROP COLUMN stock_problem`.execute(db);
  await sql`DROP TABLE IF EXISTS stock_alerts`.execute(db);
  await sql`DROP TABLE IF EXISTS stock_reservations`.execute(db);
  await sql`DROP TABLE IF EXISTS size_stock`.execute(db);
}
