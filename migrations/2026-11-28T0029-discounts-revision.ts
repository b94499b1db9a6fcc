import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

const BUMP = `INSERT INTO app_meta (key, value) VALUES ('storefront_revision', '1')
  ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;`;

/**
 * A sale changes what the storefront shows (its prices, badges and the On sale filter; decision 0037), so
 * every write to `discounts` moves the storefront revision as a product's does. A code's write moves it
 * too: rare, and one rule for the table is simpler than telling the two kinds apart in a trigger.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) {
    await sql
      .raw(
        `CREATE TRIGGER discounts_revision_${event} AFTER ${event.toUpperCase()} ON discounts BEGIN ${BUMP} END`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) {
    await sql.raw(`DROP TRIGGER IF EXISTS discounts_revision_${event}`).execute(db);
  }
}
