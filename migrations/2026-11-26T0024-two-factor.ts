import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
/**
 * Two-factor sign-in and invitations (docs/decisions/0032-two-factor-sign-in.md).
 * - admins: the TOTP secret (sealed with a key from the session keys), one waiting for its first code, when
 *   it was turned on, and the last time step a code was accepted for (a code is good once).
 * - admin_sessions: when the session last gave a code (null: a session that still owes one), and when it
 *   last proved who is behind it (a code, or the password on an account without two-factor).
 * - admin_recovery_codes: ten one-time codes per account, kept as hashes.
 * - admin_invites: one-time links that create an account, kept as hashes of their tokens.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    sql`ALTER TABLE admins ADD COLUMN totp_secret TEXT`,
    sql`ALTER TABLE admins ADD COLUMN totp_pending_secret TEXT`,
    sql`ALTER TABLE admins ADD COLUMN totp_enabled_at TEXT`,
    sql`ALTER TABLE admins ADD COLUMN totp_last_step INTEGER`,
    sql`ALTER TABLE admin_sessions ADD COLUMN two_factor_at TEXT`,
    sql`ALTER TABLE admin_sessions ADD COLUMN confirmed_at TEXT`,
    sql`
      CREATE TABLE admin_recovery_codes (
        admin_id INTEGER NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
        code_hash TEXT NOT NULL,
        used_at TEXT,
        PRIMARY KEY (admin_id, code_hash)
      ) STRICT
    `,
    sql`
      CREATE TABLE admin_invites (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        token_hash TEXT NOT NULL UNIQUE,
        email TEXT NOT NULL COLLATE NOCASE CHECK (length(email) BETWEEN 3 AND 254),
        role TEXT NOT NULL CHECK (role IN ('owner', 'staff')),
        invited_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        accepted_at TEXT,
        revoked_at TEXT
      ) STRICT
    `,
    sql`CREATE INDEX admin_invites_email ON admin_invites (email)`,
  ]) {
    await statement.execute(db);
  }
  await allowInviteEmails(db);
}

/**
 * An invitation may be emailed through the outbox: its kind joins the CHECK, which SQLite can only change by
 * building the table again (nothing refers to email_outbox, so a copy and a rename keep every row).
 */
async function allowInviteEmails(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE email_outbox_new (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 100),
    kind TEXT NOT NULL CHECK (kind IN ('order_confirmation', 'order_shipped', 'order_refund', 'back_in_stock', 'admin_invite')),
    order_id TEXT REFERENCES orders (id) ON DELETE SET NULL,
    to_address TEXT NOT NULL CHECK (length(to_address) BETWEEN 1 AND 254),
    subject TEXT NOT NULL CHECK (length(subject) BETWEEN 1 AND 300),
    html TEXT NOT NULL CHECK (length(html) <= 200000),
    text_body TEXT NOT NULL CHECK (length(text_body) <= 100000),
    status TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error TEXT CHECK (last_error IS NULL OR length(last_error) <= 1000),
    created_at TEXT NOT NULL,
    next_attempt_at TEXT,
    claimed_by TEXT,
    claim_expires_at TEXT,
    sent_at TEXT,
    message_id TEXT CHECK (message_id IS NULL OR length(message_id) <= 300),
    CHECK ((status = 'queued') = (next_attempt_at IS NOT NULL)),
    CHECK ((status = 'sending') = (claimed_by IS NOT NULL AND claim_expires_at IS NOT NULL)),
    CHECK (status <> 'sent' OR sent_at IS NOT NULL)
  ) STRICT`.execute(db);
  await sql`INSERT INTO email_outbox_new SELECT * FROM email_outbox`.execute(db);
  await sql`DROP TABLE email_outbox`.execute(db);
  await sql`ALTER TABLE email_outbox_new RENAME TO email_outbox`.execute(db);
  await sql`CREATE INDEX email_outbox_due ON email_outbox (status, next_attempt_at)`.execute(db);
  await sql`CREATE INDEX email_outbox_order ON email_outbox (order_id, created_at)`.execute(db);
  await sql`CREATE INDEX email_outbox_created ON email_outbox (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE admin_invites`.execute(db);
  await sql`DROP TABLE admin_recovery_codes`.execute(db);
  for (const column of ['confirmed_at', 'two_factor_at']) {
    await sql`ALTER TABLE admin_sessions DROP COLUMN ${sql.ref(column)}`.execute(db);
  }
  for (const column of ['totp_last_step', 'totp_enabled_at', 'totp_pending_secret', 'totp_secret']) {
    await sql`ALTER TABLE admins DROP COLUMN ${sql.ref(column)}`.execute(db);
  }
}
