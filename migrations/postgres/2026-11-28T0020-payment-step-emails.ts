import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

const KINDS_BEFORE = `'order_confirmation', 'order_shipped', 'order_refund', 'back_in_stock', 'admin_invite'`;

/** As migrations/2026-11-28T0031-payment-step-emails.ts: the owner's payment steps email the shopper. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await setKinds(db, `${KINDS_BEFORE}, 'order_payment_step'`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM email_outbox WHERE kind = 'order_payment_step'`.execute(db);
  await setKinds(db, KINDS_BEFORE);
}

async function setKinds(db: Kysely<unknown>, kinds: string): Promise<void> {
  await sql`ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check`.execute(db);
  await sql
    .raw(`ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check CHECK (kind IN (${kinds}))`)
    .execute(db);
}
