import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

const ORDER_COLUMNS = [
  `payment_method text NOT NULL DEFAULT 'card' CHECK (payment_method IN ('card', 'cash_on_delivery', 'bank_transfer'))`,
  'method_fee_minor bigint NOT NULL DEFAULT 0 CHECK (method_fee_minor >= 0)',
  'phone text CHECK (phone IS NULL OR length(phone) BETWEEN 4 AND 20)',
  'confirm_token_hash text',
  'confirm_by timestamptz',
  'confirmed_at timestamptz',
  'confirmed_by text',
  'collected_minor bigint CHECK (collected_minor IS NULL OR collected_minor >= 0)',
  'collected_at timestamptz',
  'transfer_reference text CHECK (transfer_reference IS NULL OR length(transfer_reference) <= 100)',
  'transfer_received_on text',
  'returned_reason text CHECK (returned_reason IS NULL OR length(returned_reason) <= 500)',
  'returned_restocked integer CHECK (returned_restocked IS NULL OR returned_restocked IN (0, 1))',
  'returned_at timestamptz',
];

/** As migrations/2026-11-28T0030-payment-methods.ts (decision 0038), in PostgreSQL's types. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`ALTER TABLE orders ${ORDER_COLUMNS.map((c) => `ADD COLUMN ${c}`).join(', ')}`).execute(db);
  await sql`CREATE INDEX orders_method_status ON orders (payment_method, status, created_at)`.execute(db);
  await sql`CREATE INDEX orders_cod_phone ON orders (phone, created_at) WHERE phone IS NOT NULL`.execute(db);
  await sql`
    ALTER TABLE refunds
      ADD COLUMN method text NOT NULL DEFAULT 'provider' CHECK (method IN ('provider', 'manual')),
      ADD COLUMN paid_via text CHECK (paid_via IS NULL OR length(paid_via) BETWEEN 1 AND 100),
      ADD COLUMN note text CHECK (note IS NULL OR length(note) <= 1000)
  `.execute(db);
  await sql`ALTER TABLE settings ADD COLUMN payment_methods jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(payment_methods) = 'object')`.execute(
    db,
  );
  await sql`
    CREATE TABLE cod_phone_trust (
      phone text PRIMARY KEY CHECK (length(phone) BETWEEN 4 AND 20),
      lifted_at timestamptz NOT NULL,
      lifted_by text NOT NULL
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE cod_phone_trust`.execute(db);
  await sql`DROP INDEX orders_cod_phone`.execute(db);
  await sql`DROP INDEX orders_method_status`.execute(db);
  await sql
    .raw(`ALTER TABLE orders ${ORDER_COLUMNS.map((c) => `DROP COLUMN ${c.split(' ')[0]}`).join(', ')}`)
    .execute(db);
  await sql`ALTER TABLE refunds DROP COLUMN note, DROP COLUMN paid_via, DROP COLUMN method`.execute(db);
  await sql`ALTER TABLE settings DROP COLUMN payment_methods`.execute(db);
}
