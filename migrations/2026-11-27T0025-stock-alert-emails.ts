import { type Kysely, sql } from 'kysely';

/**
 * One back-in-stock wish per person and size: sign-ups stored `BIS1@x` and `bis1@x` as two shoppers and sent
 * two emails. Addresses are kept trimmed and lower-cased from now on (the app writes them so), which makes the
 * table's UNIQUE (product_id, size, email) compare them as a mail server does in practice. Existing duplicates
 * are merged: the row still waiting is kept (its shopper has not been told yet), else the earliest.
 * The same rule in JavaScript on both engines (migrations/postgres has the twin), not the engines' lower().
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await mergeStockAlertEmails(db);
}

/** Merged rows cannot be told apart again: nothing to undo. */
export async function down(): Promise<void> {}

type Row = { id: number | string; product_id: string; size: string; email: string; notified_at: unknown };

export async function mergeStockAlertEmails(db: Kysely<unknown>): Promise<void> {
  const rows = (
    await sql<Row>`SELECT id, product_id, size, email, notified_at FROM stock_alerts ORDER BY id`.execute(db)
  ).rows;
  const kept = new Map<string, Row>();
  const drop: Array<Row['id']> = [];
  for (const row of rows) {
    const key = JSON.stringify([row.product_id, row.size, row.email.trim().toLowerCase()]);
    const first = kept.get(key);
    if (!first) kept.set(key, row);
    else if (first.notified_at != null && row.notified_at == null) {
      drop.push(first.id);
      kept.set(key, row);
    } else drop.push(row.id);
  }
  for (const id of drop) await sql`DELETE FROM stock_alerts WHERE id = ${id}`.execute(db);
  for (const row of kept.values()) {
    const email = row.email.trim().toLowerCase();
    if (email !== row.email)
      await sql`UPDATE stock_alerts SET email = ${email} WHERE id = ${row.id}`.execute(db);
  }
}
