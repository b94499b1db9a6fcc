import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

/**
 * The fit finder's measurements a line was bought with (decision 0040): centimetres per body measurement,
 * `{"chest":96.5,"waist":81}`, or null when the shopper did not use the finder on that product. They help
 * choose the replacement size of a too-small or too-big exchange, and are cleared once no return can be asked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE order_lines ADD COLUMN fit_cm TEXT
    CHECK (fit_cm IS NULL OR (json_valid(fit_cm) AND json_type(fit_cm) = 'object'))`.execute(db);
  // The housekeeping's erasure reads only the lines that still hold measurements.
  await sql`CREATE INDEX order_lines_fit ON order_lines (order_id) WHERE fit_cm IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS order_lines_fit`.execute(db);
  await sql`ALTER TABLE order_lines DROP COLUMN fit_cm`.execute(db);
}
