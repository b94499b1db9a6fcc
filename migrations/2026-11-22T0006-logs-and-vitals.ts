import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

export async function up(db: Kysely<unknown>): Promise<void> {
  // The application log the admin reads: events an operator cares about, written by the server.
  await sql`
    CREATE TABLE logs (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      time TEXT NOT NULL,
      level TEXT NOT NULL CHECK (level IN ('info', 'warning', 'error')),
      source TEXT NOT NULL,
      message TEXT NOT NULL,
      details TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
      request_id TEXT,
      repeat_count INTEGER NOT NULL DEFAULT 1,
      last_time TEXT NOT NULL
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX logs_time ON logs (time)`.execute(db);
  await sql`CREATE INDEX logs_source ON logs (source, id)`.execute(db);
  await sql`CREATE INDEX logs_level ON logs (level, id)`.execute(db);

  // Real-user performance samples from the storefront: one row per metric per page load.
  await sql`
    CREATE TABLE web_vitals (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      time TEXT NOT NULL,
      metric TEXT NOT NULL CHECK (metric IN ('LCP', 'CLS', 'INP', 'FCP', 'TTFB')),
      value REAL NOT NULL,
      route TEXT NOT NULL,
      navigation_type TEXT
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX web_vitals_time ON web_vitals (time)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS web_vitals`.execute(db);
  await sql`DROP TABLE IF EXISTS logs`.execute(db);
}
