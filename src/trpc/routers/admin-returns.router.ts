import { TRPCError } from '@trpc/server';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { isFreshlyConfirmed } from '../../modules/auth/fresh-proof.js';
import type { RefundDeps } from '../../modules/orders/refunds.service.js';
import { listReturns, returnDetail } from '../../modules/returns/return-admin-view.js';
import { recordDifferencePaid, refundDifference } from '../../modules/returns/return-difference-steps.js';
import { returnPackingSlip } from '../../modules/returns/return-packing-slip.js';
import { reasonsByProduct } from '../../modules/returns/return-reports.js';
import {
  approveReturn,
  closeExchange,
  closeRefund,
  declineReturn,
  receiveReturn,
} from '../../modules/returns/return-steps.service.js';
import {
  closeExchangeInput,
  closeRefundInput,
  declineReturnInput,
  reasonsByProductInput,
  receiveReturnInput,
  recordDifferencePaidInput,
  refundDifferenceInput,
  returnIdInput,
  returnListInput,
} from '../../shared/return-admin-input.js';
import { adminProcedure, ownerProcedure, router } from '../init.js';

function stepDeps(ctx: { db: Db; clock: Clock; config: { publicUrl: string } }) {
  return { db: ctx.db, clock: ctx.clock, publicUrl: ctx.config.publicUrl };
}

function refundDeps(ctx: Parameters<typeof stepDeps>[0] & Pick<RefundDeps, 'payments' | 'log'>): RefundDeps {
  return { ...stepDeps(ctx), payments: ctx.payments, log: ctx.log };
}

/**
 * admin.returns.*: the owner's side of returns and exchanges (issue 43). Moving a parcel along is any
 * admin's, as shipping is; the refund that closes a return is money, so the owner's (decision 0030).
 */
export const adminReturnsRouter = router({
  list: adminProcedure
    .input(returnListInput)
    .query(async ({ ctx, input }) => listReturns(ctx.db, input, ctx.admin)),

  get: adminProcedure.input(returnIdInput).query(async ({ ctx, input }) => {
    const found = await returnDetail(ctx.db, input.id, ctx.admin);
    if (!found) throw new TRPCError({ code: 'NOT_FOUND', message: 'Return not found' });
    return found;
  }),

  /**
   * What goes in an exchange's parcel, to print: the replacement, the address, the tracking once shipped.
   * Any admin packs parcels; the only money on it is what the courier collects (return-packing-slip.ts).
   */
  packingSlip: adminProcedure
    .input(returnIdInput)
    .query(async ({ ctx, input }) => returnPackingSlip(ctx.db, input.id)),

  approve: adminProcedure.input(returnIdInput).mutation(async ({ ctx, input }) => {
    const done = await approveReturn(stepDeps(ctx), ctx.admin.email, input.id);
    ctx.audit.changes = [{ field: 'status', from: 'requested', to: 'approved' }];
    ctx.mail.nudge();
    ctx.log.info(
      { event: 'returns.approved', return: input.id, account: ctx.admin.email },
      'return approved',
    );
    return done;
  }),

  decline: adminProcedure.input(declineReturnInput).mutation(async ({ ctx, input }) => {
    const done = await declineReturn(stepDeps(ctx), ctx.admin.email, input);
    ctx.audit.changes = [
      { field: 'status', from: done.from, to: 'declined' },
      ...(done.differenceStatus === 'to_refund'
        ? [{ field: 'differenceStatus', from: 'paid', to: 'to_refund' }]
        : done.differenceStatus === 'none'
          ? [{ field: 'differenceStatus', from: 'to_refund', to: 'none' }]
          : []),
    ];
    ctx.mail.nudge();
    // A held replacement went back on the shelf.
    ctx.backInStock.nudge();
    ctx.log.info(
      { event: 'returns.declined', return: input.id, account: ctx.admin.email },
      'return declined',
    );
    return done;
  }),

  receive: adminProcedure.input(receiveReturnInput).mutation(async ({ ctx, input }) => {
    const done = await receiveReturn(stepDeps(ctx), ctx.admin.email, input);
    ctx.audit.changes = [
      { field: 'status', from: 'approved', to: 'received' },
      { field: 'restockedUnits', from: 0, to: done.restockedUnits },
    ];
    ctx.mail.nudge();
    if (done.restockedUnits > 0) ctx.backInStock.nudge();
    ctx.log.info(
      {
        event: 'returns.received',
        return: input.id,
        restocked: done.restockedUnits,
        account: ctx.admin.email,
      },
      'return received',
    );
    return done;
  }),

  /**
   * Any admin ships an exchange; one whose price difference goes back to the shopper is the owner's, freshly
   * confirmed, as closeRefund is (checked in the closing transaction, where the difference is read).
   */
  closeExchange: adminProcedure.input(closeExchangeInput).mutation(async ({ ctx, input }) => {
    const done = await closeExchange(
      refundDeps(ctx),
      {
        email: ctx.admin.email,
        owner: ctx.admin.role === 'owner',
        freshlyConfirmed: isFreshlyConfirmed(ctx.admin, ctx.clock.now()),
      },
      input,
    );
    ctx.audit.changes = [
      { field: 'status', from: 'received', to: 'closed' },
      { field: 'exchangeTracking', from: null, to: `${input.carrier} ${input.trackingNumber}` },
      ...(done.refund ? [{ field: 'differenceRefundedMinor', from: null, to: done.refund.amountMinor }] : []),
    ];
    if (done.refundRefused)
      ctx.log.warn(
        { event: 'returns.difference_refund_refused', return: input.id, account: ctx.admin.email },
        'exchange shipped, its price difference refund refused',
      );
    ctx.mail.nudge();
    ctx.log.info(
      {
        event: 'returns.exchange_shipped',
        return: input.id,
        carrier: input.carrier,
        account: ctx.admin.email,
      },
      'exchange shipped',
    );
    return done;
  }),

  /** Gives the money back for the returned lines, as admin.orders.refund does, with the same fresh proof. */
  closeRefund: ownerProcedure
    .meta({ freshCode: true })
    .input(closeRefundInput)
    .mutation(async ({ ctx, input }) => {
      const done = await closeRefund(refundDeps(ctx), ctx.admin.email, input);
      ctx.audit.changes = [
        { field: 'status', from: 'received', to: 'closed' },
        { field: 'refundedMinor', from: null, to: done.refund.amountMinor },
      ];
      ctx.mail.nudge();
      return done;
    }),

  /** An exchange's price difference paid another way (cash to the courier, a transfer), as recordCashCollected is. */
  recordDifferencePaid: adminProcedure.input(recordDifferencePaidInput).mutation(async ({ ctx, input }) => {
    const done = await recordDifferencePaid(stepDeps(ctx), ctx.admin.email, input);
    ctx.audit.changes = [
      { field: 'differenceStatus', from: done.from, to: 'paid' },
      { field: 'differencePaidVia', from: null, to: input.paidVia },
    ];
    ctx.mail.nudge();
    ctx.log.info(
      { event: 'returns.difference_paid', return: input.id, account: ctx.admin.email },
      'price difference recorded paid',
    );
    return done;
  }),

  /**
   * A price difference the shop owes: a closed exchange's refused at close, or the one the shopper paid on an
   * exchange that was then declined or cancelled (owner, fresh proof).
   */
  refundDifference: ownerProcedure
    .meta({ freshCode: true })
    .input(refundDifferenceInput)
    .mutation(async ({ ctx, input }) => {
      const done = await refundDifference(refundDeps(ctx), ctx.admin.email, input);
      ctx.audit.changes = [
        { field: 'differenceStatus', from: 'to_refund', to: 'refunded' },
        { field: 'differenceRefundedMinor', from: null, to: done.refund.amountMinor },
      ];
      ctx.mail.nudge();
      return done;
    }),

  /** The return rate and reasons of one product by size, for its admin page. */
  reasonsByProduct: adminProcedure
    .input(reasonsByProductInput)
    .query(async ({ ctx, input }) => reasonsByProduct(ctx.db, input.productId)),
});
