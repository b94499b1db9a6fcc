import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
/**
 * The sold-out sizes, indexed on their own: the facet snapshot reads them at every refresh and "In stock
 * only" drives its SQL from them, and they stay few next to a catalogue whose every size is tracked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX size_stock_sold_out ON size_stock (product_id, size) WHERE on_hand <= reserved`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS size_stock_sold_out`.execute(db);
}
