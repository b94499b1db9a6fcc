import { type Kysely, sql } from 'kysely';

/** As migrations/2026-11-28T0029-discounts-revision.ts: a write to `discounts` moves the storefront revision. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // bump_storefront_revision() is the baseline's (it also tells every process, at commit).
  await sql`CREATE TRIGGER discounts_revision AFTER INSERT OR UPDATE OR DELETE ON discounts
    FOR EACH STATEMENT EXECUTE FUNCTION bump_storefront_revision()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER discounts_revision ON discounts`.execute(db);
}
