import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

const ORDER_COLUMNS = [
  `payment_method TEXT NOT NULL DEFAULT 'card' CHECK (payment_method IN ('card', 'cash_on_delivery', 'bank_transfer'))`,
  'method_fee_minor INTEGER NOT NULL DEFAULT 0 CHECK (method_fee_minor >= 0)',
  'phone TEXT CHECK (phone IS NULL OR length(phone) BETWEEN 4 AND 20)',
  'confirm_token_hash TEXT',
  'confirm_by TEXT',
  'confirmed_at TEXT',
  'confirmed_by TEXT',
  'collected_minor INTEGER CHECK (collected_minor IS NULL OR collected_minor >= 0)',
  'collected_at TEXT',
  'transfer_reference TEXT CHECK (transfer_reference IS NULL OR length(transfer_reference) <= 100)',
  'transfer_received_on TEXT',
  'returned_reason TEXT CHECK (returned_reason IS NULL OR length(returned_reason) <= 500)',
  'returned_restocked INTEGER CHECK (returned_restocked IS NULL OR returned_restocked IN (0, 1))',
  'returned_at TEXT',
];

/**
 * Cash on delivery and bank transfer (decision 0038): the method of each order (every earlier order was paid
 * by card), its fee and the steps the owner records on it; refunds paid back by hand; the owner's payment
 * method settings; and the phones the owner trusts again after returns to origin.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ORDER_COLUMNS) await sql.raw(`ALTER TABLE orders ADD COLUMN ${column}`).execute(db);
  // The sweep of unconfirmed and unpaid orders, the list's method filter and the abuse limits' counts.
  await sql`CREATE INDEX orders_method_status ON orders (payment_method, status, created_at)`.execute(db);
  await sql`CREATE INDEX orders_cod_phone ON orders (phone, created_at) WHERE phone IS NOT NULL`.execute(db);
  await sql`ALTER TABLE refunds ADD COLUMN method TEXT NOT NULL DEFAULT 'provider' CHECK (method IN ('provider', 'manual'))`.execute(
    db,
  );
  await sql`ALTER TABLE refunds ADD COLUMN paid_via TEXT CHECK (paid_via IS NULL OR length(paid_via) BETWEEN 1 AND 100)`.execute(
    db,
  );
  await sql`ALTER TABLE refunds ADD COLUMN note TEXT CHECK (note IS NULL OR length(note) <= 1000)`.execute(
    db,
  );
  await sql`ALTER TABLE settings ADD COLUMN payment_methods TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payment_methods) AND json_type(payment_methods) = 'object')`.execute(
    db,
  );
  await sql`
    CREATE TABLE cod_phone_trust (
      phone TEXT PRIMARY KEY NOT NULL CHECK (length(phone) BETWEEN 4 AND 20),
      lifted_at TEXT NOT NULL,
      lifted_by TEXT NOT NULL
    ) STRICT
  `.execute(db);
}

/** Back to card only: the columns go (an order paid in cash keeps its status and total). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE cod_phone_trust`.execute(db);
  await sql`DROP INDEX orders_cod_phone`.execute(db);
  await sql`DROP INDEX orders_method_status`.execute(db);
  for (const column of [...ORDER_COLUMNS].reverse()) {
    await sql`ALTER TABLE orders DROP COLUMN ${sql.ref(column.split(' ')[0] ?? '')}`.execute(db);
  }
  for (const column of ['note', 'paid_via', 'method']) {
    await sql`ALTER TABLE refunds DROP COLUMN ${sql.ref(column)}`.execute(db);
  }
  await sql`ALTER TABLE settings DROP COLUMN payment_methods`.execute(db);
}
