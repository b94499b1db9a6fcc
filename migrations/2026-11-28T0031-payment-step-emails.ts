import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

const KINDS_BEFORE = `'order_confirmation', 'order_shipped', 'order_refund', 'back_in_stock', 'admin_invite'`;

/**
 * The owner's steps on cash-on-delivery and bank-transfer orders email the shopper (decision 0038): their
 * kind joins the outbox's CHECK, which SQLite can only change by building the table again (nothing refers to
 * email_outbox, so a copy and a rename keep every row).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await rebuildOutbox(db, `${KINDS_BEFORE}, 'order_payment_step'`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM email_outbox WHERE kind = 'order_payment_step'`.execute(db);
  await rebuildOutbox(db, KINDS_BEFORE);
}

async function rebuildOutbox(db: Kysely<unknown>, kinds: string): Promise<void> {
  await sql
    .raw(`CREATE TABLE email_outbox_new (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 100),
    kind TEXT NOT NULL CHECK (kind IN (${kinds})),
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
  ) STRICT`)
    .execute(db);
  await sql`INSERT INTO email_outbox_new SELECT * FROM email_outbox`.execute(db);
  await sql`DROP TABLE email_outbox`.execute(db);
  await sql`ALTER TABLE email_outbox_new RENAME TO email_outbox`.execute(db);
  await sql`CREATE INDEX email_outbox_due ON email_outbox (status, next_attempt_at)`.execute(db);
  await sql`CREATE INDEX email_outbox_order ON email_outbox (order_id, created_at)`.execute(db);
  await sql`CREATE INDEX email_outbox_created ON email_outbox (created_at)`.execute(db);
}
