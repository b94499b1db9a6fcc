import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

/** As migrations/2026-11-29T0033-return-differences.ts (decision 0039), in PostgreSQL's types. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE return_lines ADD COLUMN difference_minor bigint NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE returns ADD COLUMN difference_minor bigint NOT NULL DEFAULT 0`.execute(db);
  await sql`
    ALTER TABLE returns ADD COLUMN difference_status text NOT NULL DEFAULT 'none'
      CHECK (difference_status IN ('none', 'due', 'paid', 'collect_on_delivery', 'to_refund', 'refunded'))
  `.execute(db);
  await sql`ALTER TABLE returns ADD COLUMN difference_session_id text CHECK (difference_session_id IS NULL OR length(difference_session_id) <= 300)`.execute(
    db,
  );
  await sql`ALTER TABLE returns ADD COLUMN difference_payment_intent_id text CHECK (difference_payment_intent_id IS NULL OR length(difference_payment_intent_id) <= 300)`.execute(
    db,
  );
  await sql`ALTER TABLE returns ADD COLUMN difference_paid_via text CHECK (difference_paid_via IS NULL OR length(difference_paid_via) <= 100)`.execute(
    db,
  );
  await sql`ALTER TABLE returns ADD COLUMN difference_paid_at timestamptz`.execute(db);
  await sql`ALTER TABLE returns ADD COLUMN difference_refund_id text`.execute(db);
  // The return a refund belongs to (a return's refund, an exchange's difference): its email is the return's,
  // so the order's own refund email is not sent as well. No foreign key: refunds move before returns.
  await sql`ALTER TABLE refunds ADD COLUMN return_id text`.execute(db);
  await sql`CREATE UNIQUE INDEX returns_difference_session ON returns (difference_session_id) WHERE difference_session_id IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX returns_difference_session`.execute(db);
  await sql`ALTER TABLE refunds DROP COLUMN return_id`.execute(db);
  await sql`
    ALTER TABLE returns
      DROP COLUMN difference_refund_id,
      DROP COLUMN difference_paid_at,
      DROP COLUMN difference_paid_via,
      DROP COLUMN difference_payment_intent_id,
      DROP COLUMN difference_session_id,
      DROP COLUMN difference_status,
      DROP COLUMN difference_minor
  `.execute(db);
  await sql`ALTER TABLE return_lines DROP COLUMN difference_minor`.execute(db);
}
