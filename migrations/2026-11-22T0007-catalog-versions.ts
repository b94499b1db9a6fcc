import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per exported catalogue file (in FileStorage under catalogs/); at most one is active.
  await sql`
    CREATE TABLE catalog_versions (
      id TEXT PRIMARY KEY NOT NULL,
      label TEXT NOT NULL DEFAULT '' CHECK (length(label) <= 200),
      file_name TEXT NOT NULL UNIQUE,
      storage_key TEXT NOT NULL UNIQUE CHECK (storage_key LIKE 'catalogs/%'),
      tags TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags) AND json_type(tags) = 'array'),
      is_active INTEGER NOT NULL DEFAULT 0 CHECK (is_active IN (0, 1)),
      kind TEXT NOT NULL DEFAULT 'export' CHECK (kind IN ('export', 'backup')),
      product_count INTEGER NOT NULL DEFAULT 0,
      byte_size INTEGER NOT NULL DEFAULT 0,
      checksum TEXT NOT NULL DEFAULT '',
      created_by TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX catalog_versions_created ON catalog_versions (created_at, id)`.execute(db);
  await sql`CREATE UNIQUE INDEX catalog_versions_one_active ON catalog_versions (is_active) WHERE is_active = 1`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS catalog_versions`.execute(db);
}
