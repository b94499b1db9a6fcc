import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

/**
 * What happens to an order after its payment. Fulfilment is its own column beside the payment status, as
 * Stripe and Shopify keep them: an order is paid and shipped, paid and cancelled, paid and partly refunded.
 * The refunded amount and quantities are kept on the order and its lines under CHECKs, so no refund can
 * ever exceed what was paid, whatever the code above does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE orders ADD COLUMN fulfilment TEXT NOT NULL DEFAULT 'unfulfilled'
    CHECK (fulfilment IN ('unfulfilled', 'shipped', 'delivered', 'cancelled'))`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN carrier TEXT CHECK (carrier IS NULL OR length(carrier) <= 100)`.execute(
    db,
  );
  await sql`ALTER TABLE orders ADD COLUMN tracking_number TEXT
    CHECK (tracking_number IS NULL OR length(tracking_number) <= 100)`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN tracking_url TEXT
    CHECK (tracking_url IS NULL OR length(tracking_url) <= 500)`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN shipped_at TEXT`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN delivered_at TEXT`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN cancelled_at TEXT`.execute(db);
  // Pending and succeeded refunds together: what is promised back can never pass what was paid.
  await sql`ALTER TABLE orders ADD COLUMN refunded_minor INTEGER NOT NULL DEFAULT 0
    CHECK (refunded_minor >= 0 AND refunded_minor <= coalesce(total_minor, subtotal_minor))`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN payment_intent_id TEXT`.execute(db);
  // The key of the shopper's order page link (/order/{id}?token=...); the id alone shows nothing.
  await sql`ALTER TABLE orders ADD COLUMN access_token TEXT`.execute(db);
  await sql`UPDATE orders SET access_token = lower(hex(randomblob(24)))`.execute(db);
  await sql`CREATE INDEX orders_paid_at ON orders (paid_at)`.execute(db);
  await sql`CREATE INDEX orders_payment_intent ON orders (payment_intent_id)`.execute(db);

  await sql`ALTER TABLE order_lines ADD COLUMN refunded_quantity INTEGER NOT NULL DEFAULT 0
    CHECK (refunded_quantity >= 0 AND refunded_quantity <= quantity)`.execute(db);

  await sql`
    CREATE TABLE refunds (
      id TEXT PRIMARY KEY NOT NULL,
      order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
      currency TEXT NOT NULL CHECK (length(currency) = 3),
      reason TEXT CHECK (reason IS NULL OR length(reason) <= 500),
      lines TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(lines) AND json_type(lines) = 'array'),
      status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
      provider TEXT NOT NULL CHECK (provider IN ('stripe', 'demo')),
      provider_refund_id TEXT UNIQUE,
      failure TEXT,
      admin_email TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX refunds_order ON refunds (order_id, created_at)`.execute(db);
  await sql`CREATE INDEX refunds_pending ON refunds (status, created_at)`.execute(db);

  // The order's story for the admin: who did what when (emails come from the outbox beside it).
  await sql`
    CREATE TABLE order_events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 40),
      actor TEXT NOT NULL,
      detail TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(detail)),
      at TEXT NOT NULL
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX order_events_order ON order_events (order_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS order_events`.execute(db);
  await sql`DROP TABLE IF EXISTS refunds`.execute(db);
  await sql`ALTER TABLE order_lines DROP COLUMN refunded_quantity`.execute(db);
  await sql`DROP INDEX IF EXISTS orders_payment_intent`.execute(db);
  await sql`DROP INDEX IF EXISTS orders_paid_at`.execute(db);
  for (const column of [
    'access_token',
    'payment_intent_id',
    'refunded_minor',
    'cancelled_at',
    'delivered_at',
    'shipped_at',
    'tracking_url',
    'tracking_number',
    'carrier',
    'fulfilment',
  ]) {
    await sql`ALTER TABLE orders DROP COLUMN ${sql.id(column)}`.execute(db);
  }
}
