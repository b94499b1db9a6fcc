import { type Kysely, sql } from 'kysely';

/**
 * page_order becomes a decimal sort key (2.5 goes between 2 and 3), as the original spec parses it. The
 * products table is STRICT, whose INTEGER column refuses 2.5, and SQLite changes a column's type only by
 * building the table again: SQLite's documented procedure, with foreign keys off so that dropping the old
 * table does not cascade to media and stock, and the rowids kept. The table's own CREATE text is reused with
 * only the column's type changed, so every column a later migration added comes along; its indexes and
 * triggers are made again from their own text.
 */
const OLD_COLUMN = 'page_order INTEGER NOT NULL DEFAULT 999';
const NEW_COLUMN = 'page_order REAL NOT NULL DEFAULT 999';

export async function up(db: Kysely<unknown>): Promise<void> {
  await retypePageOrder(db, OLD_COLUMN, NEW_COLUMN);
}

/** Back to whole numbers: fails (the STRICT table refuses) while a product has a decimal page order. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await retypePageOrder(db, NEW_COLUMN, OLD_COLUMN);
}

async function retypePageOrder(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  const table = (
    await sql<{
      sql: string;
    }>`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'products'`.execute(db)
  ).rows[0]?.sql;
  if (!table?.includes(from)) throw new Error(`products has no column "${from}" to change`);
  const created = table
    .replace(from, to)
    .replace(/^CREATE TABLE\s+"?products"?/, 'CREATE TABLE products_new');
  if (!created.startsWith('CREATE TABLE products_new')) throw new Error('Unexpected products table text');
  // Indexes (not the primary key's own) and triggers of products, in the order they were made.
  const dependents = (
    await sql<{ sql: string }>`
      SELECT sql FROM sqlite_schema
      WHERE tbl_name = 'products' AND type IN ('index', 'trigger') AND sql IS NOT NULL
      ORDER BY rowid`.execute(db)
  ).rows.map((r) => r.sql);
  const columns = (
    await sql<{ name: string }>`SELECT name FROM pragma_table_info('products')`.execute(db)
  ).rows
    .map((r) => `"${r.name.replaceAll('"', '""')}"`)
    .join(', ');

  // Only outside a transaction does this pragma take effect.
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(created).execute(trx);
      await sql
        .raw(`INSERT INTO products_new (rowid, ${columns}) SELECT rowid, ${columns} FROM products`)
        .execute(trx);
      await sql`DROP TABLE products`.execute(trx);
      // Legacy mode renames the table alone: other tables' triggers and references already say "products".
      await sql`PRAGMA legacy_alter_table = ON`.execute(trx);
      await sql`ALTER TABLE products_new RENAME TO products`.execute(trx);
      await sql`PRAGMA legacy_alter_table = OFF`.execute(trx);
      for (const statement of dependents) await sql.raw(statement).execute(trx);
      const broken = (await sql`PRAGMA foreign_key_check`.execute(trx)).rows;
      if (broken.length > 0) throw new Error('Rebuilding products broke a foreign key');
    });
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
