import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

const KINDS_BEFORE = `'order_confirmation', 'order_shipped', 'order_refund', 'back_in_stock', 'admin_invite', 'order_payment_step'`;

/** As migrations/2026-11-28T0032-returns.ts (decision 0039), in PostgreSQL's types. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE returns (
      id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
      order_id text NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('requested', 'approved', 'declined', 'received', 'closed', 'cancelled')),
      reason text NOT NULL CHECK (reason IN ('too_small', 'too_big', 'not_as_pictured', 'damaged', 'changed_mind', 'other')),
      reason_text text CHECK (reason_text IS NULL OR length(reason_text) <= 500),
      resolution text NOT NULL CHECK (resolution IN ('exchange', 'refund')),
      decline_reason text CHECK (decline_reason IS NULL OR length(decline_reason) <= 500),
      condition_note text CHECK (condition_note IS NULL OR length(condition_note) <= 1000),
      exchange_carrier text CHECK (exchange_carrier IS NULL OR length(exchange_carrier) <= 100),
      exchange_tracking text CHECK (exchange_tracking IS NULL OR length(exchange_tracking) <= 100),
      refunded_minor bigint CHECK (refunded_minor IS NULL OR refunded_minor >= 0),
      currency text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      approved_at timestamptz,
      received_at timestamptz,
      closed_at timestamptz,
      CHECK (reason <> 'other' OR (reason_text IS NOT NULL AND length(reason_text) >= 1))
    )
  `.execute(db);
  await sql`CREATE INDEX returns_order ON returns (order_id)`.execute(db);
  await sql`CREATE INDEX returns_status_created ON returns (status, created_at)`.execute(db);
  await sql`
    CREATE TABLE return_lines (
      return_id text NOT NULL REFERENCES returns (id) ON DELETE CASCADE,
      order_line_id bigint NOT NULL REFERENCES order_lines (id),
      quantity integer NOT NULL CHECK (quantity > 0),
      exchange_colour text,
      exchange_size text,
      held integer NOT NULL DEFAULT 0 CHECK (held >= 0),
      restocked integer NOT NULL DEFAULT 0 CHECK (restocked >= 0),
      PRIMARY KEY (return_id, order_line_id),
      CHECK (held <= quantity AND restocked <= quantity)
    )
  `.execute(db);
  await sql`CREATE INDEX return_lines_order_line ON return_lines (order_line_id)`.execute(db);
  await sql`ALTER TABLE settings ADD COLUMN returns jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(returns) = 'object')`.execute(
    db,
  );
  await setKinds(db, `${KINDS_BEFORE}, 'return_step'`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM email_outbox WHERE kind = 'return_step'`.execute(db);
  await setKinds(db, KINDS_BEFORE);
  await sql`ALTER TABLE settings DROP COLUMN returns`.execute(db);
  await sql`DROP TABLE return_lines`.execute(db);
  await sql`DROP TABLE returns`.execute(db);
}

async function setKinds(db: Kysely<unknown>, kinds: string): Promise<void> {
  await sql`ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check`.execute(db);
  await sql
    .raw(`ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check CHECK (kind IN (${kinds}))`)
    .execute(db);
}
