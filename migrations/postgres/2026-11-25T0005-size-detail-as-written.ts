import { type Kysely, sql } from 'kysely';

/**
 * A product's size details keep the order the operator wrote them in: `json`, which keeps the text as
 * written, instead of `jsonb`, which sorts an object's keys (shortest first), so the size table's columns
 * (Chest, Length, Waist…) and the admin form would show in another order than on SQLite. Nothing queries
 * inside the column; it is read and written whole.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE products DROP CONSTRAINT products_size_detail_check`.execute(db);
  await sql`ALTER TABLE products ALTER COLUMN size_detail DROP DEFAULT`.execute(db);
  await sql`ALTER TABLE products ALTER COLUMN size_detail TYPE json USING size_detail::json`.execute(db);
  await sql`ALTER TABLE products ALTER COLUMN size_detail SET DEFAULT '{}'`.execute(db);
  await sql`ALTER TABLE products ADD CONSTRAINT products_size_detail_check
    CHECK (json_typeof(size_detail) = 'object')`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Size details are not turned back into jsonb: restore a backup instead.');
}
