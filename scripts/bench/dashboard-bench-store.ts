import type { Kysely } from 'kysely';
import { databaseFile, openDatabase } from '../../src/db/connect.js';
import type { Database, OrderStatus } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres/connect-postgres.js';

/**
 * What the dashboard's bench scripts share: its fixed "now" and shop zone (every run asks for the same days),
 * a store kept by `npm run bench:dashboard -- --keep` opened and migrated, and the payments its payment
 * scenarios make and take back, so a kept store keeps its answers.
 */
export const NOW = new Date('2026-11-28T15:30:00.000Z');
export const ZONE = 'Asia/Karachi';

/** A kept store on SQLite (`sqliteDir`) or PostgreSQL (`postgresUrl`, `pool` connections), migrated. */
export async function openKeptStore(
  kept: { sqliteDir?: string | undefined; postgresUrl?: string | undefined },
  pool: number,
): Promise<{ db: Kysely<Database>; postgres: boolean; close: () => Promise<void> }> {
  const handle = kept.sqliteDir
    ? openDatabase(databaseFile(kept.sqliteDir))
    : openPostgres(String(kept.postgresUrl), pool, { lockWaitMs: 0 });
  const postgres = !kept.sqliteDir;
  await migrateToLatest(handle.db, postgres ? 'postgres' : 'sqlite');
  return { db: handle.db, postgres, close: () => handle.close() };
}

export type UnpaidOrder = { id: string; status: OrderStatus };

/** Up to `count` orders never paid, still open: the ones a payment scenario pays. */
export function unpaidOrders(db: Kysely<Database>, count: number): Promise<UnpaidOrder[]> {
  return db
    .selectFrom('orders')
    .select(['id', 'status'])
    .where('paid_at', 'is', null)
    .where('status', 'in', ['pending', 'processing'])
    .orderBy('id')
    .limit(count)
    .execute();
}

/** Pays the order a minute before the bench's now. */
export async function payOrder(db: Kysely<Database>, id: string): Promise<void> {
  const paidAt = new Date(NOW.getTime() - 60_000).toISOString();
  await db.updateTable('orders').set({ status: 'paid', paid_at: paidAt }).where('id', '=', id).execute();
}

/** The orders unpaid again, as they were before payOrder. */
export async function putBack(db: Kysely<Database>, orders: readonly UnpaidOrder[]): Promise<void> {
  for (const order of orders)
    await db
      .updateTable('orders')
      .set({ status: order.status, paid_at: null })
      .where('id', '=', order.id)
      .execute();
}
