import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
/**
 * Which products changed, in order, written by triggers whoever writes (admin, import, CLI, hand-run SQL),
 * so that data derived in memory (the facet snapshot) can apply only what changed since it was built.
 * At least the last 10,000 entries are kept (trimmed every thousandth); a reader that fell further behind
 * builds again from scratch.
 */
const KEEP = 10_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE catalogue_changes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id TEXT NOT NULL
    )
  `.execute(db);
  const log = (row: 'new' | 'old') =>
    sql.raw(`INSERT INTO catalogue_changes (product_id) VALUES (${row}.id);`);
  await sql`CREATE TRIGGER catalogue_changes_insert AFTER INSERT ON products BEGIN ${log('new')} END`.execute(
    db,
  );
  await sql`CREATE TRIGGER catalogue_changes_delete AFTER DELETE ON products BEGIN ${log('old')} END`.execute(
    db,
  );
  await sql`
    CREATE TRIGGER catalogue_changes_update AFTER UPDATE ON products BEGIN
      ${log('old')}
      INSERT INTO catalogue_changes (product_id) SELECT new.id WHERE new.id IS NOT old.id;
    END
  `.execute(db);
  // Trimmed every thousandth entry, by primary key range: cheap, and the log stays bounded.
  await sql`
    CREATE TRIGGER catalogue_changes_trim AFTER INSERT ON catalogue_changes WHEN new.seq % 1000 = 0 BEGIN
      DELETE FROM catalogue_changes WHERE seq <= new.seq - ${sql.lit(KEEP)};
    END
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'catalogue_changes_trim',
    'catalogue_changes_update',
    'catalogue_changes_delete',
    'catalogue_changes_insert',
  ]) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(t)}`.execute(db);
  }
  await sql`DROP TABLE IF EXISTS catalogue_changes`.execute(db);
}
