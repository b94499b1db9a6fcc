import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';

/**
 * A code's uses (decision 0037): held by a checkout that can still be paid, then redeemed by its payment or
 * released when it expires, fails or is abandoned. `discounts.uses` counts held and redeemed uses; every
 * change to it is one conditional update, so two checkouts can never both take the last use.
 */

/** The uses of a code by an address (held and redeemed), compared case-insensitively. */
export async function usesByEmail(db: DbOrTx, discountId: string, email: string): Promise<number> {
  const row = await db
    .selectFrom('discount_redemptions')
    .select(sql<number>`count(*)`.as('n'))
    .where('discount_id', '=', discountId)
    .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
    .where('status', 'in', ['held', 'redeemed'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export type HoldRefusal = 'used_up' | 'used_by_email';

/**
 * Takes one use of a code for a pending order, in the caller's transaction (the one that makes the order).
 * The conditional update is the lock: on PostgreSQL it holds the discount's row until commit, so the count
 * of the address's uses read after it cannot race another checkout of the same code.
 */
export async function holdCodeUse(
  trx: DbOrTx,
  use: {
    discountId: string;
    orderId: string;
    email: string | null;
    maxUsesPerEmail: number | null;
    amountMinor: number;
    now: Date;
  },
): Promise<HoldRefusal | null> {
  const taken = await trx
    .updateTable('discounts')
    .set({ uses: sql<number>`uses + 1` })
    .where('id', '=', use.discountId)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) return 'used_up';
  if (use.maxUsesPerEmail !== null && use.email !== null) {
    if ((await usesByEmail(trx, use.discountId, use.email)) >= use.maxUsesPerEmail) return 'used_by_email';
  }
  const iso = use.now.toISOString();
  await trx
    .insertInto('discount_redemptions')
    .values({
      discount_id: use.discountId,
      order_id: use.orderId,
      email: use.email === null ? null : use.email.trim().toLowerCase(),
      status: 'held',
      amount_minor: use.amountMinor,
      created_at: iso,
      updated_at: iso,
    })
    .execute();
  return null;
}

/**
 * Gives an order's held use back (its checkout expired, failed or was abandoned). Conditional on `held`,
 * so a second release (a replayed webhook, the job and the webhook both) changes nothing.
 */
export async function releaseCodeUse(trx: DbOrTx, orderId: string, now: Date): Promise<number> {
  const held = await trx
    .selectFrom('discount_redemptions')
    .select(['id', 'discount_id'])
    .where('order_id', '=', orderId)
    .where('status', '=', 'held')
    .execute();
  let released = 0;
  for (const r of held) {
    const moved = await trx
      .updateTable('discount_redemptions')
      .set({ status: 'released', updated_at: now.toISOString() })
      .where('id', '=', r.id)
      .where('status', '=', 'held')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) continue;
    await trx
      .updateTable('discounts')
      .set({ uses: sql<number>`CASE WHEN uses > 0 THEN uses - 1 ELSE 0 END` })
      .where('id', '=', r.discount_id)
      .execute();
    released += 1;
  }
  return released;
}

/**
 * An order was paid: its use is redeemed. A use released before a late payment came is taken again
 * (even past the limit: the shopper has paid with it, and the owner sees the count as it is).
 */
export async function redeemCodeUse(trx: DbOrTx, orderId: string, now: Date): Promise<void> {
  const rows = await trx
    .selectFrom('discount_redemptions')
    .select(['id', 'discount_id', 'status'])
    .where('order_id', '=', orderId)
    .where('status', 'in', ['held', 'released'])
    .execute();
  for (const r of rows) {
    const moved = await trx
      .updateTable('discount_redemptions')
      .set({ status: 'redeemed', updated_at: now.toISOString() })
      .where('id', '=', r.id)
      .where('status', '=', r.status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) > 0 && r.status === 'released') {
      await trx
        .updateTable('discounts')
        .set({ uses: sql<number>`uses + 1` })
        .where('id', '=', r.discount_id)
        .execute();
    }
  }
}
