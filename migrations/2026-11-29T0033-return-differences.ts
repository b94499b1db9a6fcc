import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

/**
 * The price difference of an exchange (decision 0039): fixed per line and for the return when the shopper
 * asks, signed (positive: the shopper owes it; negative: the shop gives it back), and how it was settled.
 * A Checkout session pays one return's difference, so its id is unique where set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE return_lines ADD COLUMN difference_minor INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE returns ADD COLUMN difference_minor INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`
    ALTER TABLE returns ADD COLUMN difference_status TEXT NOT NULL DEFAULT 'none'
      CHECK (difference_status IN ('none', 'due', 'paid', 'collect_on_delivery', 'to_refund', 'refunded'))
  `.execute(db);
  await sql`ALTER TABLE returns ADD COLUMN difference_session_id TEXT CHECK (difference_session_id IS NULL OR length(difference_session_id) <= 300)`.execute(
    db,
  );
  await sql`ALTER TABLE returns ADD COLUMN difference_payment_intent_id TEXT CHECK (difference_payment_intent_id IS NULL OR length(difference_payment_intent_id) <= 300)`.execute(
    db,
  );
  await sql`ALTER TABLE returns ADD COLUMN difference_paid_via TEXT CHECK (difference_paid_via IS NULL OR length(difference_paid_via) <= 100)`.execute(
    db,
  );
  await sql`ALTER TABLE returns ADD COLUMN difference_paid_at TEXT`.execute(db);
  await sql`ALTER TABLE returns ADD COLUMN difference_refund_id TEXT`.execute(db);
  // The return a refund belongs to (a return's refund, an exchange's difference): its email is the return's,
  // so the order's own refund email is not sent as well. No foreign key: refunds move before returns.
  await sql`ALTER TABLE refunds ADD COLUMN return_id TEXT`.execute(db);
  await sql`CREATE UNIQUE INDEX returns_difference_session ON returns (difference_session_id) WHERE difference_session_id IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX returns_difference_session`.execute(db);
  await sql`ALTER TABLE refunds DROP COLUMN return_id`.execute(db);
  for (const column of [
    'difference_refund_id',
    'difference_paid_at',
    'difference_paid_via',
    'difference_payment_intent_id',
    'difference_session_id',
    'difference_status',
    'difference_minor',
  ]) {
    await sql`ALTER TABLE returns DROP COLUMN ${sql.raw(column)}`.execute(db);
  }
  await sql`ALTER TABLE return_lines DROP COLUMN difference_minor`.execute(db);
}
