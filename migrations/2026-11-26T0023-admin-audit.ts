import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
/**
 * The admin audit (decision 0031): one row per change an admin made, with who, when, from which
 * address, what and on what. No foreign key to admins: the record outlives a removed account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE admin_audit (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      at TEXT NOT NULL,
      admin_id INTEGER,
      admin_email TEXT NOT NULL,
      ip TEXT,
      action TEXT NOT NULL,
      target TEXT,
      details TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details))
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX admin_audit_at ON admin_audit (at)`.execute(db);
  await sql`CREATE INDEX admin_audit_admin ON admin_audit (admin_email, at)`.execute(db);
  await sql`CREATE INDEX admin_audit_action ON admin_audit (action, at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE admin_audit`.execute(db);
}
