import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
/**
 * One row per admin sign-in (decision 0003): the sealed cookie carries only the row's random id, so signing
 * out one browser revokes its row and a copy of that cookie stops working everywhere. `epoch` is the admin's
 * session_epoch when the row was made; "sign out everywhere" and password changes bump the admin's epoch,
 * which ends every row made before. The device and address columns are for listing an admin's sessions.
 *
 * revoked_reason has no CHECK: a later way to end a session (from a list of sessions) must not need a rebuild.
 * WITHOUT ROWID: every admin request looks a session up by its id, so the row lives in the primary-key b-tree.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE admin_sessions (
      id TEXT PRIMARY KEY CHECK (length(id) BETWEEN 16 AND 64),
      admin_id INTEGER NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
      epoch INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      last_seen_at TEXT NOT NULL,
      revoked_at TEXT,
      revoked_reason TEXT,
      user_agent TEXT CHECK (length(user_agent) <= 512),
      created_ip TEXT,
      last_seen_ip TEXT
    ) STRICT, WITHOUT ROWID
  `.execute(db);
  await sql`CREATE INDEX admin_sessions_admin ON admin_sessions (admin_id, last_seen_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS admin_sessions`.execute(db);
}
