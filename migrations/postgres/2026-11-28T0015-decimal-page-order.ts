import { type Kysely, sql } from 'kysely';

/**
 * page_order becomes a decimal sort key (2.5 goes between 2 and 3), as the original spec parses it: double
 * precision, which node-postgres reads as a JS number and which orders exactly as the catalogue snapshot's
 * Float64Array does (numeric would come back as text). Its index is rebuilt with the column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE products ALTER COLUMN page_order TYPE double precision`.execute(db);
}

/** Back to whole numbers: a decimal page order is rounded. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE products ALTER COLUMN page_order TYPE integer USING round(page_order)::integer`.execute(
    db,
  );
}
