import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

/** As migrations/2026-11-29T0034-order-line-fit.ts (decision 0040), in PostgreSQL's types. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE order_lines ADD COLUMN fit_cm jsonb
    CHECK (fit_cm IS NULL OR jsonb_typeof(fit_cm) = 'object')`.execute(db);
  // The housekeeping's erasure reads only the lines that still hold measurements.
  await sql`CREATE INDEX order_lines_fit ON order_lines (order_id) WHERE fit_cm IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS order_lines_fit`.execute(db);
  await sql`ALTER TABLE order_lines DROP COLUMN fit_cm`.execute(db);
}
