import { type Kysely, sql } from 'kysely';

/** As migrations/2026-11-25T0021-sold-out-index.ts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX size_stock_sold_out ON size_stock (product_id, size) WHERE on_hand <= reserved`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS size_stock_sold_out`.execute(db);
}
