import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Db, DbOrTx } from '../../db/database.js';
import { minorToMajorString, parseMajorToMinor } from '../../shared/money.js';
import {
  PAYMENT_METHOD_LABEL,
  type PaymentMethodName,
  paymentStepLabel,
  type recordCashCollectedInput,
  type recordTransferInput,
  type returnedToOriginInput,
} from '../../shared/payment-methods.js';
import { redeemCodeUse, releaseCodeUse } from '../discounts/redemptions.repository.js';
import { sellReservations } from '../stock/reservations.js';
import { putBackOrderStock } from '../stock/returned-stock.js';
import { recordOrderEvent } from './order-events.repository.js';
import { flagStockProblem } from './orders.repository.js';
import { queuePaymentStepEmail } from './payment-step-mail.js';

/**
 * The owner's steps after a cash-on-delivery order is confirmed, and the transfer's arrival (decision 0038).
 * Each is one conditional UPDATE on the method and the status it expects, in one transaction with its
 * consequences (stock, the code's use, the timeline, the shopper's email when the owner chose it): two admins
 * pressing at once move the order once, and the other is told it was already recorded.
 */

export type PaymentStepDeps = { db: Db; clock: Clock; publicUrl: string };

type StepName = 'collected' | 'returned' | 'transfer';

const STEP: Record<StepName, { method: PaymentMethodName; done: string; doing: string }> = {
  collected: {
    method: 'cash_on_delivery',
    done: 'the cash was already recorded as collected',
    doing: 'recorded as collected',
  },
  returned: {
    method: 'cash_on_delivery',
    done: 'it was already recorded as returned to origin',
    doing: 'recorded as returned to origin',
  },
  transfer: {
    method: 'bank_transfer',
    done: 'its transfer was already recorded',
    doing: 'recorded as paid by transfer',
  },
};

async function orderOf(db: DbOrTx, id: string) {
  const order = await db
    .selectFrom('orders')
    .select([
      'id',
      'number',
      'status',
      'fulfilment',
      'payment_method',
      'currency',
      'total_minor',
      'subtotal_minor',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!order) throw new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' });
  return order;
}

function wrongMethod(
  order: { number: number; payment_method: PaymentMethodName },
  step: StepName,
): TRPCError {
  return new TRPCError({
    code: 'BAD_REQUEST',
    message: `Order #${order.number} is paid by ${PAYMENT_METHOD_LABEL[order.payment_method].toLowerCase()}, not ${PAYMENT_METHOD_LABEL[STEP[step].method].toLowerCase()}.`,
  });
}

/** Why the UPDATE matched nothing, read after it: the order may just have been moved by someone else. */
async function refusal(db: DbOrTx, id: string, step: StepName): Promise<TRPCError> {
  const order = await orderOf(db, id);
  if (order.payment_method !== STEP[step].method) return wrongMethod(order, step);
  const already =
    (step === 'collected' && order.status === 'paid') ||
    (step === 'returned' && order.status === 'payment_failed') ||
    (step === 'transfer' && order.status === 'paid');
  const where = paymentStepLabel(order.payment_method, order.status, order.fulfilment).toLowerCase();
  return new TRPCError({
    code: 'CONFLICT',
    message: already
      ? `Order #${order.number}: ${STEP[step].done}.`
      : `Order #${order.number} cannot be ${STEP[step].doing}: it is ${where}.`,
  });
}

/** A paid order's units leave the shop and its code's use is redeemed, as a card payment does. */
async function sellOrder(trx: DbOrTx, orderId: string, now: Date): Promise<void> {
  const short = await sellReservations(trx, orderId);
  await redeemCodeUse(trx, orderId, now);
  if (short.length > 0) {
    await flagStockProblem(
      trx,
      orderId,
      `Paid for more than was in stock: ${short.join(', ')}. Refund it, or restock.`,
    );
    await recordOrderEvent(trx, { orderId, kind: 'oversold', actor: 'store', detail: { short }, at: now });
  }
}

/**
 * A confirmed cash-on-delivery parcel was delivered and the courier handed over the cash: the order is paid
 * and delivered. An amount other than the total is recorded as it is, and the timeline says by how much.
 */
export async function recordCashCollected(
  deps: PaymentStepDeps,
  admin: string,
  input: z.output<typeof recordCashCollectedInput>,
): Promise<{ number: number; collectedMinor: number; differenceMinor: number }> {
  const order = await orderOf(deps.db, input.id);
  if (order.payment_method !== 'cash_on_delivery') throw wrongMethod(order, 'collected');
  const amount = parseMajorToMinor(input.amount, order.currency);
  if (amount === null)
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `Enter the amount collected like ${minorToMajorString(order.total_minor ?? order.subtotal_minor, order.currency)}`,
    });
  const now = deps.clock.now();
  const iso = now.toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('orders')
      .set({
        status: 'paid',
        paid_at: iso,
        collected_minor: amount,
        collected_at: iso,
        fulfilment: 'delivered',
        delivered_at: iso,
        updated_at: iso,
      })
      .where('id', '=', input.id)
      .where('payment_method', '=', 'cash_on_delivery')
      .where('status', '=', 'processing')
      .where('fulfilment', 'in', ['unfulfilled', 'shipped'])
      .returning(['number', 'currency', 'total_minor', 'subtotal_minor'])
      .executeTakeFirst();
    if (!moved) throw await refusal(trx, input.id, 'collected');
    const totalMinor = moved.total_minor ?? moved.subtotal_minor;
    const differenceMinor = amount - totalMinor;
    await sellOrder(trx, input.id, now);
    await recordOrderEvent(trx, {
      orderId: input.id,
      kind: 'cash_collected',
      actor: admin,
      detail: { amountMinor: amount, currency: moved.currency, totalMinor, differenceMinor },
      at: now,
    });
    await queuePaymentStepEmail(trx, {
      orderId: input.id,
      mail: { step: 'collected', amountMinor: amount },
      publicUrl: deps.publicUrl,
      now,
    });
    return { number: moved.number, collectedMinor: amount, differenceMinor };
  });
}

/**
 * A confirmed cash-on-delivery parcel came back unpaid (refused, nobody at the address): the payment failed
 * and the fulfilment is cancelled, with the reason. Restocked, its units go back on hand; not restocked (lost
 * or damaged), they stay sold. Returns the units put back, for the back-in-stock nudge.
 */
export async function returnedToOrigin(
  deps: PaymentStepDeps,
  admin: string,
  input: z.output<typeof returnedToOriginInput>,
): Promise<{ number: number; restockedUnits: number }> {
  const now = deps.clock.now();
  const iso = now.toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('orders')
      .set({
        status: 'payment_failed',
        fulfilment: 'cancelled',
        cancelled_at: iso,
        returned_reason: input.reason,
        returned_restocked: input.restock ? 1 : 0,
        returned_at: iso,
        updated_at: iso,
      })
      .where('id', '=', input.id)
      .where('payment_method', '=', 'cash_on_delivery')
      .where('status', '=', 'processing')
      .where('fulfilment', 'in', ['unfulfilled', 'shipped'])
      .returning(['number'])
      .executeTakeFirst();
    if (!moved) throw await refusal(trx, input.id, 'returned');
    let restockedUnits = 0;
    if (input.restock) restockedUnits = await putBackOrderStock(trx, input.id);
    // Units still only held went out with the parcel and did not come back: they leave the count.
    else await sellReservations(trx, input.id);
    // The code's use goes back with an unpaid order, as an expired checkout's does (decision 0037).
    await releaseCodeUse(trx, input.id, now);
    await recordOrderEvent(trx, {
      orderId: input.id,
      kind: 'returned_to_origin',
      actor: admin,
      detail: { reason: input.reason, restocked: input.restock, units: restockedUnits },
      at: now,
    });
    await queuePaymentStepEmail(trx, {
      orderId: input.id,
      mail: { step: 'returned' },
      publicUrl: deps.publicUrl,
      now,
    });
    return { number: moved.number, restockedUnits };
  });
}

/** A real calendar day (the schema checks only its shape): 2026-02-30 is refused. */
function isCalendarDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/**
 * The bank transfer arrived: the order is paid, its held units sold and its code's use redeemed, as a card
 * payment does; fulfilment goes on as for a card order. Only while it is pending (an expired order gave its
 * stock back and is not revived here).
 */
export async function recordTransfer(
  deps: PaymentStepDeps,
  admin: string,
  input: z.output<typeof recordTransferInput>,
): Promise<{ number: number }> {
  const now = deps.clock.now();
  const iso = now.toISOString();
  // A day after today (the store's day may be ahead of UTC) at most: a transfer is recorded once it arrived.
  const latest = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  if (!isCalendarDay(input.receivedOn) || input.receivedOn > latest)
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'Enter the day the transfer arrived, not a later one',
    });
  return deps.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('orders')
      .set({
        status: 'paid',
        paid_at: iso,
        transfer_reference: input.reference,
        transfer_received_on: input.receivedOn,
        updated_at: iso,
      })
      .where('id', '=', input.id)
      .where('payment_method', '=', 'bank_transfer')
      .where('status', '=', 'pending')
      // A pending order the owner cancelled is closed: its stock went back.
      .where('fulfilment', '!=', 'cancelled')
      .returning(['number', 'currency', 'total_minor', 'subtotal_minor'])
      .executeTakeFirst();
    if (!moved) throw await refusal(trx, input.id, 'transfer');
    const amountMinor = moved.total_minor ?? moved.subtotal_minor;
    await sellOrder(trx, input.id, now);
    await recordOrderEvent(trx, {
      orderId: input.id,
      kind: 'transfer_received',
      actor: admin,
      detail: {
        reference: input.reference,
        receivedOn: input.receivedOn,
        amountMinor,
        currency: moved.currency,
      },
      at: now,
    });
    await queuePaymentStepEmail(trx, {
      orderId: input.id,
      mail: {
        step: 'transfer_received',
        amountMinor,
        reference: input.reference,
        receivedOn: input.receivedOn,
      },
      publicUrl: deps.publicUrl,
      now,
    });
    return { number: moved.number };
  });
}
