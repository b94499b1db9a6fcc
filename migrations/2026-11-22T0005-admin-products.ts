import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

export async function up(db: Kysely<unknown>): Promise<void> {
  // Uploaded files: where they are stored, what they are, and the web variants made from images.
  await sql`ALTER TABLE media ADD COLUMN storage_key TEXT`.execute(db);
  await sql`ALTER TABLE media ADD COLUMN content_type TEXT`.execute(db);
  await sql`ALTER TABLE media ADD COLUMN byte_size INTEGER`.execute(db);
  await sql`ALTER TABLE media ADD COLUMN width INTEGER`.execute(db);
  await sql`ALTER TABLE media ADD COLUMN height INTEGER`.execute(db);
  // JSON array of {url, width, format, storageKey}.
  await sql`ALTER TABLE media ADD COLUMN variants TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(variants))`.execute(
    db,
  );

  // Who changed which product, when, and what it looked like afterwards; kept after the product is deleted.
  await sql`
    CREATE TABLE product_history (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id TEXT NOT NULL,
      product_title TEXT NOT NULL,
      action TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete')),
      admin_email TEXT NOT NULL,
      snapshot TEXT NOT NULL CHECK (json_valid(snapshot)),
      changes TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(changes)),
      created_at TEXT NOT NULL
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX product_history_product ON product_history (product_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS product_history`.execute(db);
  for (const column of ['variants', 'height', 'width', 'byte_size', 'content_type', 'storage_key']) {
    await sql`ALTER TABLE media DROP COLUMN ${sql.raw(column)}`.execute(db);
  }
}
