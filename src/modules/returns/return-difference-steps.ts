import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { recordDifferencePaidInput, refundDifferenceInput } from '../../shared/return-admin-input.js';
import { recordOrderEvent } from '../orders/order-events.repository.js';
import { type RefundDeps, type RefundPayment, sendReservedRefund } from '../orders/refunds.service.js';
import { DEMO_DIFFERENCE_PREFIX } from '../payments/demo-gateway.js';
import { queueReturnStepEmail } from './return-mail.js';
import {
  queueRefundedEmail,
  type ReturnStepDeps,
  reserveDifferenceRefund,
  returnOf,
} from './return-steps.service.js';

/**
 * The owner's steps of an exchange's price difference (decision 0039) besides closing: recording it paid
 * another way than the order page's card payment, and refunding what the shop owes of it.
 */

/** 'due' or 'collect_on_delivery' → 'paid': the courier's cash, a transfer, a card payment taken elsewhere. */
export async function recordDifferencePaid(
  deps: ReturnStepDeps,
  admin: string,
  input: z.output<typeof recordDifferencePaidInput>,
) {
  const now = deps.clock.now();
  const iso = now.toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const ret = await returnOf(trx, input.id);
    const from = ret.difference_status;
    if (
      (from !== 'due' && from !== 'collect_on_delivery') ||
      ret.status === 'declined' ||
      ret.status === 'cancelled'
    )
      throw new TRPCError({
        code: 'CONFLICT',
        message: `This exchange of order #${ret.number} has no price difference waiting to be paid.`,
      });
    const moved = await trx
      .updateTable('returns')
      .set({
        difference_status: 'paid',
        difference_paid_via: input.paidVia,
        difference_paid_at: iso,
        // A page's session opened but not paid is not what took the money (refundDifference reads this).
        difference_session_id: null,
        difference_payment_intent_id: null,
        updated_at: iso,
      })
      .where('id', '=', input.id)
      .where('difference_status', '=', from)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0)
      throw new TRPCError({
        code: 'CONFLICT',
        message: `The price difference of this exchange of order #${ret.number} was just recorded: look again.`,
      });
    await recordOrderEvent(trx, {
      orderId: ret.order_id,
      kind: 'return_difference_paid',
      actor: admin,
      detail: {
        returnId: input.id,
        amountMinor: ret.difference_minor,
        currency: ret.currency,
        paidVia: input.paidVia,
        note: input.note,
      },
      at: now,
    });
    await queueReturnStepEmail(trx, { publicUrl: deps.publicUrl, now }, input.id, 'difference_paid');
    return { id: input.id, differenceStatus: 'paid' as const, from };
  });
}

/**
 * A price difference the shop owes, refunded through the order's refund: a closed exchange's given-back
 * difference (< 0) whose refund was refused, to the order's payment; or the difference the shopper paid (> 0)
 * on an exchange then declined or cancelled, to the payment that took it (the difference's own Checkout
 * session) or by hand when it was paid by hand. Reserved in the transaction that marks it refunded, so two
 * owners at once refund it once, then sent. A refusal puts it back to 'to_refund' (settleRefund) and says so.
 */
export async function refundDifference(
  deps: RefundDeps,
  admin: string,
  input: z.output<typeof refundDifferenceInput>,
) {
  const now = deps.clock.now();
  const iso = now.toISOString();
  const reserved = await deps.db.transaction().execute(async (trx) => {
    const ret = await returnOf(trx, input.id);
    const moved = await trx
      .updateTable('returns')
      .set({ difference_status: 'refunded', updated_at: iso })
      .where('id', '=', input.id)
      .where('difference_status', '=', 'to_refund')
      .where((eb) =>
        eb.or([
          eb.and([
            eb('status', '=', 'closed'),
            eb('resolution', '=', 'exchange'),
            eb('difference_minor', '<', 0),
          ]),
          eb.and([
            eb('status', 'in', ['declined', 'cancelled']),
            eb('difference_minor', '>', 0),
            eb('difference_paid_at', 'is not', null),
          ]),
        ]),
      )
      .returning([
        'difference_minor',
        'difference_paid_via',
        'difference_payment_intent_id',
        'difference_session_id',
      ])
      .executeTakeFirst();
    if (!moved)
      throw new TRPCError({
        code: 'CONFLICT',
        message: `This return of order #${ret.number} has no price difference to refund now.`,
      });
    const reserved = await reserveDifferenceRefund(
      trx,
      deps,
      admin,
      { id: input.id, orderId: ret.order_id, number: ret.number },
      {
        amountMinor: Math.abs(moved.difference_minor),
        paidVia: input.paidVia,
        note: input.note,
        ...(moved.difference_minor > 0 ? { besides: paymentOf(moved) } : {}),
      },
    );
    await recordOrderEvent(trx, {
      orderId: ret.order_id,
      kind: 'return_difference_refunded',
      actor: admin,
      detail: {
        returnId: input.id,
        refundId: reserved.refundId,
        amountMinor: reserved.request.amountMinor,
        currency: reserved.request.currency,
      },
      at: now,
    });
    if (reserved.manual) await queueRefundedEmail(trx, deps, input.id, now);
    return reserved;
  });
  const refund = await sendReservedRefund(deps, admin, reserved);
  if (!reserved.manual)
    await deps.db.transaction().execute((trx) => queueRefundedEmail(trx, deps, input.id, deps.clock.now()));
  return { id: input.id, differenceStatus: 'refunded' as const, refund };
}

/**
 * Where a paid difference goes back: the Checkout session that took it (the demo's by its prefix), or by
 * hand when the owner recorded it paid another way, whatever the order itself was paid by.
 */
function paymentOf(paid: {
  difference_paid_via: string | null;
  difference_payment_intent_id: string | null;
  difference_session_id: string | null;
}): RefundPayment {
  // recordDifferencePaid clears the session, so "card" typed by the owner is a payment by hand too.
  if (paid.difference_paid_via !== 'card' || paid.difference_session_id === null) return 'manual';
  return {
    provider: paid.difference_session_id?.startsWith(DEMO_DIFFERENCE_PREFIX) ? 'demo' : 'stripe',
    paymentIntentId: paid.difference_payment_intent_id,
    sessionId: paid.difference_session_id,
  };
}
