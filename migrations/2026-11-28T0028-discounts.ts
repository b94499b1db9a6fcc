import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

/**
 * Sales and discount codes (decision 0037): the discounts, each use of a code by a checkout, what an order
 * line was charged before and after them, and the shop's time zone (in which the owner sets their dates).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE discounts (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('sale', 'code')),
      name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      code TEXT CHECK (code IS NULL OR length(code) BETWEEN 3 AND 40),
      code_key TEXT UNIQUE CHECK ((kind = 'code') = (code_key IS NOT NULL)),
      value_type TEXT NOT NULL CHECK (value_type IN ('percent', 'fixed', 'free_shipping')),
      percent INTEGER CHECK (percent IS NULL OR percent BETWEEN 1 AND 100),
      amount_minor INTEGER CHECK (amount_minor IS NULL OR amount_minor BETWEEN 1 AND 100000000000),
      currency TEXT,
      target TEXT NOT NULL DEFAULT 'items' CHECK (target IN ('order', 'items')),
      scope TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(scope) AND json_type(scope) = 'object'),
      starts_at TEXT NOT NULL,
      ends_at TEXT,
      ended_at TEXT,
      min_order_minor INTEGER CHECK (min_order_minor IS NULL OR min_order_minor >= 0),
      max_uses INTEGER CHECK (max_uses IS NULL OR max_uses >= 1),
      max_uses_per_email INTEGER CHECK (max_uses_per_email IS NULL OR max_uses_per_email >= 1),
      uses INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0 AND (max_uses IS NULL OR uses <= max_uses)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX discounts_kind ON discounts (kind, starts_at)`.execute(db);
  await sql`
    CREATE TABLE discount_redemptions (
      id INTEGER PRIMARY KEY,
      discount_id TEXT NOT NULL REFERENCES discounts (id) ON DELETE CASCADE,
      order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      email TEXT,
      status TEXT NOT NULL CHECK (status IN ('held', 'redeemed', 'released')),
      amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (order_id)
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX discount_redemptions_by_discount ON discount_redemptions (discount_id, status, email)`.execute(
    db,
  );
  await sql`ALTER TABLE order_lines ADD COLUMN regular_unit_price_minor INTEGER`.execute(db);
  await sql`ALTER TABLE order_lines ADD COLUMN discount_minor INTEGER NOT NULL DEFAULT 0 CHECK (discount_minor >= 0)`.execute(
    db,
  );
  await sql`ALTER TABLE order_lines ADD COLUMN sale_id TEXT`.execute(db);
  await sql`ALTER TABLE order_lines ADD COLUMN sale_name TEXT`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN discount_minor INTEGER NOT NULL DEFAULT 0 CHECK (discount_minor >= 0)`.execute(
    db,
  );
  await sql`ALTER TABLE orders ADD COLUMN sales_minor INTEGER NOT NULL DEFAULT 0 CHECK (sales_minor >= 0)`.execute(
    db,
  );
  await sql`ALTER TABLE orders ADD COLUMN discount_code TEXT`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN discount_id TEXT`.execute(db);
  await sql`CREATE INDEX orders_discount_code ON orders (discount_code) WHERE discount_code IS NOT NULL`.execute(
    db,
  );
  await sql`ALTER TABLE settings ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC'`.execute(db);
  await sql`ALTER TABLE settings ADD COLUMN stripe_promotion_codes INTEGER NOT NULL DEFAULT 0`.execute(db);
}

/** Back to before discounts: their tables and columns go (an order keeps what it was charged). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE discount_redemptions`.execute(db);
  await sql`DROP TABLE discounts`.execute(db);
  await sql`DROP INDEX orders_discount_code`.execute(db);
  for (const column of ['discount_minor', 'sales_minor', 'discount_code', 'discount_id']) {
    await sql`ALTER TABLE orders DROP COLUMN ${sql.ref(column)}`.execute(db);
  }
  for (const column of ['regular_unit_price_minor', 'discount_minor', 'sale_id', 'sale_name']) {
    await sql`ALTER TABLE order_lines DROP COLUMN ${sql.ref(column)}`.execute(db);
  }
  await sql`ALTER TABLE settings DROP COLUMN time_zone`.execute(db);
  await sql`ALTER TABLE settings DROP COLUMN stripe_promotion_codes`.execute(db);
}
