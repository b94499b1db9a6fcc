import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

export async function up(db: Kysely<unknown>): Promise<void> {
  // Where a shop ships and what it charges for shipping, offered on Stripe's Checkout page.
  await sql`ALTER TABLE settings ADD COLUMN shipping_countries TEXT NOT NULL DEFAULT '["US","CA","GB","AU","PK","AE"]'
    CHECK (json_valid(shipping_countries) AND json_type(shipping_countries) = 'array')`.execute(db);
  await sql`ALTER TABLE settings ADD COLUMN shipping_options TEXT NOT NULL DEFAULT '[{"label":"Standard shipping","amountMinor":0,"currency":"usd","minDays":5,"maxDays":10}]'
    CHECK (json_valid(shipping_options) AND json_type(shipping_options) = 'array')`.execute(db);

  await sql`
    CREATE TABLE orders (
      id TEXT PRIMARY KEY NOT NULL,
      number INTEGER NOT NULL UNIQUE,
      status TEXT NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'processing', 'paid', 'payment_failed', 'expired')),
      payment_mode TEXT NOT NULL CHECK (payment_mode IN ('stripe', 'demo')),
      currency TEXT NOT NULL CHECK (length(currency) = 3 AND currency = lower(currency)),
      subtotal_minor INTEGER NOT NULL CHECK (subtotal_minor >= 0),
      total_minor INTEGER CHECK (total_minor IS NULL OR total_minor >= 0),
      customer_email TEXT,
      customer_name TEXT,
      shipping_address TEXT CHECK (shipping_address IS NULL OR json_valid(shipping_address)),
      billing_address TEXT CHECK (billing_address IS NULL OR json_valid(billing_address)),
      stripe_session_id TEXT UNIQUE,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      paid_at TEXT
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX orders_status_created ON orders (status, created_at)`.execute(db);
  await sql`CREATE INDEX orders_created ON orders (created_at)`.execute(db);

  // A snapshot of each line as it was sold: later product edits never change an order.
  await sql`
    CREATE TABLE order_lines (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      product_id TEXT NOT NULL,
      title TEXT NOT NULL,
      size TEXT,
      quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10),
      unit_price_minor INTEGER NOT NULL CHECK (unit_price_minor >= 0),
      line_total_minor INTEGER NOT NULL CHECK (line_total_minor >= 0),
      image_url TEXT
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX order_lines_order ON order_lines (order_id)`.execute(db);

  // Every Stripe event once (its id is the key), plus what it did to which order.
  await sql`
    CREATE TABLE stripe_events (
      id TEXT PRIMARY KEY NOT NULL,
      type TEXT NOT NULL,
      order_id TEXT,
      outcome TEXT NOT NULL,
      received_at TEXT NOT NULL
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX stripe_events_order ON stripe_events (order_id, received_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS stripe_events`.execute(db);
  await sql`DROP TABLE IF EXISTS order_lines`.execute(db);
  await sql`DROP TABLE IF EXISTS orders`.execute(db);
  await sql`ALTER TABLE settings DROP COLUMN shipping_options`.execute(db);
  await sql`ALTER TABLE settings DROP COLUMN shipping_countries`.execute(db);
}
