import { timingSafeEqual } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { durableTransaction } from '../../db/durable.js';
import { redeemCodeUse } from '../discounts/redemptions.repository.js';
import { readPaymentMethods } from '../settings/payment-method-settings.js';
import { sellReservations } from '../stock/reservations.js';
import { queueOfflineOrderEmail } from './offline-order-mail.js';
import { confirmTokenHash, tokenMatches } from './order-access.js';
import { recordOrderEvent } from './order-events.repository.js';
import { flagStockProblem } from './orders.repository.js';

export type ConfirmDeps = { db: Db; clock: Clock; publicUrl: string };

/** Who confirms: the shopper holding the order page's or the email link's token, or an admin after a call. */
export type Confirmer = { kind: 'shopper'; token: string } | { kind: 'admin'; email: string };

export type ConfirmResult = { outcome: 'confirmed' | 'already_confirmed'; number: number };

/** The same answer as the order page's to a wrong id or token: nothing tells them apart. */
const NOT_FOUND = () => new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' });

export const CONFIRM_TOO_LATE =
  'The time to confirm this order has passed, so it has been cancelled. You are welcome to order again.';

/** The order page's token, or the confirmation link's (only its SHA-256 is kept), compared in constant time. */
export function holdsConfirmToken(
  order: { access_token: string | null; confirm_token_hash: string | null },
  token: string,
) {
  if (tokenMatches(order.access_token, token)) return true;
  if (!order.confirm_token_hash) return false;
  const a = Buffer.from(order.confirm_token_hash);
  const b = Buffer.from(confirmTokenHash(token));
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Confirms a cash-on-delivery order (decision 0038), for the shopper's link and the admin's button alike:
 * one conditional UPDATE (cash on delivery, pending, before its deadline) moves it to processing, so two
 * clicks or two admins confirm it once; the one that did sells its held stock, redeems its code use, adds
 * the step to the timeline and queues the email, in the same transaction. The other answers
 * "already confirmed".
 */
export async function confirmCashOnDelivery(
  deps: ConfirmDeps,
  orderId: string,
  by: Confirmer,
): Promise<ConfirmResult> {
  const order = await deps.db
    .selectFrom('orders')
    .select(['id', 'number', 'payment_method', 'access_token', 'confirm_token_hash'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) throw NOT_FOUND();
  if (by.kind === 'shopper' && !holdsConfirmToken(order, by.token)) throw NOT_FOUND();
  if (order.payment_method !== 'cash_on_delivery') {
    if (by.kind === 'shopper') throw NOT_FOUND();
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'This order is not paid cash on delivery.' });
  }
  const actor = by.kind === 'shopper' ? 'shopper' : by.email;
  const now = deps.clock.now();
  const iso = now.toISOString();
  const result = await durableTransaction(deps.db, async (trx) => {
    const moved = await trx
      .updateTable('orders')
      .set({ status: 'processing', confirmed_at: iso, confirmed_by: actor, updated_at: iso })
      .where('id', '=', orderId)
      .where('payment_method', '=', 'cash_on_delivery')
      .where('status', '=', 'pending')
      .where('confirm_by', '>', iso)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return 'unmoved' as const;
    // Committed like a paid card order's: the hold no longer expires (decision 0038).
    const short = await sellReservations(trx, orderId);
    await redeemCodeUse(trx, orderId, now);
    if (short.length > 0) {
      await flagStockProblem(
        trx,
        orderId,
        `Confirmed for more than was in stock: ${short.join(', ')}. Cancel it, or restock.`,
      );
      await recordOrderEvent(trx, { orderId, kind: 'oversold', actor: 'store', detail: { short }, at: now });
    }
    await recordOrderEvent(trx, {
      orderId,
      kind: 'confirmed',
      actor,
      detail: { by: by.kind },
      at: now,
    });
    if ((await readPaymentMethods(trx)).emails.confirmed)
      await queueOfflineOrderEmail(trx, { kind: 'cod_confirmed', orderId, publicUrl: deps.publicUrl, now });
    return 'confirmed' as const;
  });
  if (result === 'confirmed') return { outcome: 'confirmed', number: order.number };
  const after = await deps.db
    .selectFrom('orders')
    .select(['status', 'confirmed_at'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  if (after.confirmed_at !== null) return { outcome: 'already_confirmed', number: order.number };
  if (after.status === 'pending' || after.status === 'expired')
    throw new TRPCError({ code: 'BAD_REQUEST', message: CONFIRM_TOO_LATE });
  throw new TRPCError({ code: 'BAD_REQUEST', message: 'This order can no longer be confirmed.' });
}
