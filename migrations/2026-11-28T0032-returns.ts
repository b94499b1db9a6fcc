import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

const KINDS_BEFORE = `'order_confirmation', 'order_shipped', 'order_refund', 'back_in_stock', 'admin_invite', 'order_payment_step'`;

/**
 * Returns and exchanges (decision 0039): the shopper's requests with their lines, the owner's return
 * settings, and the 'return_step' email kind. An exchange's replacement is held on size_stock.reserved and
 * counted on return_lines.held, so giving it back or selling it is one update of each.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE returns (
      id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 100),
      order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      status TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'declined', 'received', 'closed', 'cancelled')),
      reason TEXT NOT NULL CHECK (reason IN ('too_small', 'too_big', 'not_as_pictured', 'damaged', 'changed_mind', 'other')),
      reason_text TEXT CHECK (reason_text IS NULL OR length(reason_text) <= 500),
      resolution TEXT NOT NULL CHECK (resolution IN ('exchange', 'refund')),
      decline_reason TEXT CHECK (decline_reason IS NULL OR length(decline_reason) <= 500),
      condition_note TEXT CHECK (condition_note IS NULL OR length(condition_note) <= 1000),
      exchange_carrier TEXT CHECK (exchange_carrier IS NULL OR length(exchange_carrier) <= 100),
      exchange_tracking TEXT CHECK (exchange_tracking IS NULL OR length(exchange_tracking) <= 100),
      refunded_minor INTEGER CHECK (refunded_minor IS NULL OR refunded_minor >= 0),
      currency TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      approved_at TEXT,
      received_at TEXT,
      closed_at TEXT,
      CHECK (reason <> 'other' OR (reason_text IS NOT NULL AND length(reason_text) >= 1))
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX returns_order ON returns (order_id)`.execute(db);
  await sql`CREATE INDEX returns_status_created ON returns (status, created_at)`.execute(db);
  await sql`
    CREATE TABLE return_lines (
      return_id TEXT NOT NULL REFERENCES returns (id) ON DELETE CASCADE,
      order_line_id INTEGER NOT NULL REFERENCES order_lines (id),
      quantity INTEGER NOT NULL CHECK (quantity > 0),
      exchange_colour TEXT,
      exchange_size TEXT,
      held INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0),
      restocked INTEGER NOT NULL DEFAULT 0 CHECK (restocked >= 0),
      PRIMARY KEY (return_id, order_line_id),
      CHECK (held <= quantity AND restocked <= quantity)
    ) STRICT
  `.execute(db);
  // What a line already has in returns is summed by the line when a new one is asked for.
  await sql`CREATE INDEX return_lines_order_line ON return_lines (order_line_id)`.execute(db);
  await sql`ALTER TABLE settings ADD COLUMN returns TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(returns) AND json_type(returns) = 'object')`.execute(
    db,
  );
  await rebuildOutbox(db, `${KINDS_BEFORE}, 'return_step'`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM email_outbox WHERE kind = 'return_step'`.execute(db);
  await rebuildOutbox(db, KINDS_BEFORE);
  await sql`ALTER TABLE settings DROP COLUMN returns`.execute(db);
  await sql`DROP TABLE return_lines`.execute(db);
  await sql`DROP TABLE returns`.execute(db);
}

/** SQLite changes a CHECK only by building the table again (nothing refers to email_outbox). */
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
