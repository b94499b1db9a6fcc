import { type Kysely, sql } from 'kysely';

/** As migrations/2026-11-25T0018-email-outbox.ts, with timestamptz times. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE settings ADD COLUMN contact_email text
    CHECK (contact_email IS NULL OR length(contact_email) BETWEEN 3 AND 254)`.execute(db);
  await sql`CREATE TABLE email_outbox (
    id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
    kind text NOT NULL CHECK (kind IN ('order_confirmation', 'order_shipped', 'order_refund', 'back_in_stock')),
    order_id text REFERENCES orders (id) ON DELETE SET NULL,
    to_address text NOT NULL CHECK (length(to_address) BETWEEN 1 AND 254),
    subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 300),
    html text NOT NULL CHECK (length(html) <= 200000),
    text_body text NOT NULL CHECK (length(text_body) <= 100000),
    status text NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
    attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error text CHECK (last_error IS NULL OR length(last_error) <= 1000),
    created_at timestamptz NOT NULL,
    next_attempt_at timestamptz,
    claimed_by text,
    claim_expires_at timestamptz,
    sent_at timestamptz,
    message_id text CHECK (message_id IS NULL OR length(message_id) <= 300),
    CHECK ((status = 'queued') = (next_attempt_at IS NOT NULL)),
    CHECK ((status = 'sending') = (claimed_by IS NOT NULL AND claim_expires_at IS NOT NULL)),
    CHECK (status <> 'sent' OR sent_at IS NOT NULL)
  )`.execute(db);
  await sql`CREATE INDEX email_outbox_due ON email_outbox (status, next_attempt_at)`.execute(db);
  await sql`CREATE INDEX email_outbox_order ON email_outbox (order_id, created_at)`.execute(db);
  await sql`CREATE INDEX email_outbox_created ON email_outbox (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE email_outbox`.execute(db);
  await sql`ALTER TABLE settings DROP COLUMN contact_email`.execute(db);
}
