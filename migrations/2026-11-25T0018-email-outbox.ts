import { type Kysely, sql } from 'kysely';

/**
 * The order emails (confirmation, shipped, refund) go through an outbox: a row is written in the transaction
 * of the change that causes the email, and a worker sends it later (src/modules/email/). A mail server that is
 * down loses nothing; several processes share the table and claim each email with one conditional UPDATE.
 * The store's contact email, shown in the emails and used as their Reply-To, joins the settings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE settings ADD COLUMN contact_email TEXT
    CHECK (contact_email IS NULL OR length(contact_email) BETWEEN 3 AND 254)`.execute(db);
  await sql`CREATE TABLE email_outbox (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 100),
    kind TEXT NOT NULL CHECK (kind IN ('order_confirmation', 'order_shipped', 'order_refund', 'back_in_stock')),
    -- Kept when an order goes away: the record of what was sent outlives it.
    order_id TEXT REFERENCES orders (id) ON DELETE SET NULL,
    to_address TEXT NOT NULL CHECK (length(to_address) BETWEEN 1 AND 254),
    subject TEXT NOT NULL CHECK (length(subject) BETWEEN 1 AND 300),
    html TEXT NOT NULL CHECK (length(html) <= 200000),
    text_body TEXT NOT NULL CHECK (length(text_body) <= 100000),
    status TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error TEXT CHECK (last_error IS NULL OR length(last_error) <= 1000),
    created_at TEXT NOT NULL,
    -- When a queued email is due; null once it is sent or has failed.
    next_attempt_at TEXT,
    -- The process sending it, until when: a claim that runs out is taken over (the process died mid-send).
    claimed_by TEXT,
    claim_expires_at TEXT,
    sent_at TEXT,
    message_id TEXT CHECK (message_id IS NULL OR length(message_id) <= 300),
    CHECK ((status = 'queued') = (next_attempt_at IS NOT NULL)),
    CHECK ((status = 'sending') = (claimed_by IS NOT NULL AND claim_expires_at IS NOT NULL)),
    CHECK (status <> 'sent' OR sent_at IS NOT NULL)
  ) STRICT`.execute(db);
  // The worker's search for due emails, and the admin's timeline of one order.
  await sql`CREATE INDEX email_outbox_due ON email_outbox (status, next_attempt_at)`.execute(db);
  await sql`CREATE INDEX email_outbox_order ON email_outbox (order_id, created_at)`.execute(db);
  await sql`CREATE INDEX email_outbox_created ON email_outbox (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE email_outbox`.execute(db);
  await sql`ALTER TABLE settings DROP COLUMN contact_email`.execute(db);
}
