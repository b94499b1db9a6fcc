import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
/**
 * Each admin account has a role: 'owner' may do everything, 'staff' works on products, media and order
 * fulfilment (docs/decisions/0030-owner-and-staff.md). Every account before roles existed was
 * an owner, and stays one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE admins ADD COLUMN role TEXT NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'staff'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE admins DROP COLUMN role`.execute(db);
}
