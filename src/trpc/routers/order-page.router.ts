import { TRPCError } from '@trpc/server';
import { RetryLater } from '../../core/failures.js';
import { confirmCashOnDelivery } from '../../modules/orders/cod-confirmation.js';
import { paymentReferenceOf } from '../../modules/orders/offline-order-mail.js';
import { tokenMatches } from '../../modules/orders/order-access.js';
import { loadOrderRecord } from '../../modules/orders/order-record.js';
import { payReturnDifference } from '../../modules/returns/return-differences.js';
import {
  cancelReturnInput,
  payReturnDifferenceInput,
  requestReturnInput,
  returnOptionsInput,
} from '../../modules/returns/return-input.js';
import {
  cancelReturn,
  customerReturns,
  requestReturn,
  returnOptions,
} from '../../modules/returns/shopper-returns.service.js';
import { readPaymentMethods } from '../../modules/settings/payment-method-settings.js';
import { readStoreContacts } from '../../modules/settings/settings.repository.js';
import { orderPageInput } from '../../shared/checkout-input.js';
import { type CustomerOrderView, orderStageLabel } from '../../shared/orders.js';
import { confirmCashOnDeliveryInput, paymentStep, paymentStepLabel } from '../../shared/payment-methods.js';
import { publicProcedure, router } from '../init.js';

/** The one answer to a wrong id, a wrong token and an unpaid order alike: nothing tells them apart. */
const NOT_FOUND = () => new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' });

/** orderPage.*: the shopper's own order, opened from the link in their emails. */
export const orderPageRouter = router({
  view: publicProcedure.input(orderPageInput).query(async ({ ctx, input }): Promise<CustomerOrderView> => {
    const record = await loadOrderRecord(ctx.db, input.id);
    if (!record || !tokenMatches(record.order.access_token, input.token)) throw NOT_FOUND();
    const { order } = record;
    const method = order.payment_method;
    // An unpaid card checkout has no page yet: its link was never sent. An order paid at the door or by
    // transfer has one from its placing: it is where the shopper learns what comes next (decision 0038).
    if (order.paid_at === null && method === 'card') throw NOT_FOUND();
    const bank = method === 'bank_transfer';
    return {
      number: order.number,
      status: order.status,
      fulfilment: order.fulfilment,
      stage: orderStageLabel(order.status, order.fulfilment),
      currency: order.currency,
      createdAt: order.created_at,
      paidAt: order.paid_at,
      subtotalMinor: record.charges.subtotalMinor,
      discountMinor: record.charges.discountMinor,
      discountLabel: record.charges.discountLabel,
      adjustmentsMinor: record.charges.adjustmentsMinor,
      totalMinor: record.paidMinor,
      refundedMinor: record.refundedMinor,
      lines: record.lines.map(
        ({ id: _id, productId: _p, refundableMinor: _r, chargedTotalMinor: _c, ...line }) => line,
      ),
      shippingAddress: record.shippingAddress,
      shipment: record.shipment,
      deliveredAt: order.delivered_at,
      cancelledAt: order.cancelled_at,
      store: await readStoreContacts(ctx.db),
      paymentMethod: method,
      step: paymentStep(method, order.status, order.fulfilment),
      stepLabel: paymentStepLabel(method, order.status, order.fulfilment),
      methodFeeMinor: order.method_fee_minor,
      // The pending step's deadline: confirm by it (cash on delivery), or transfer by it (bank transfer).
      confirmBy: method !== 'card' && order.status === 'pending' ? order.confirm_by : null,
      bankDetails: bank ? (await readPaymentMethods(ctx.db)).bankTransfer.accountDetails : null,
      paymentReference: bank ? paymentReferenceOf(order.number) : null,
      returns: await customerReturns(ctx.db, order.id),
    };
  }),

  /** What may be returned or exchanged, and for what (decision 0039); the same guard as view. */
  returnOptions: publicProcedure
    .input(returnOptionsInput)
    .query(({ ctx, input }) =>
      returnOptions({ db: ctx.db, clock: ctx.clock, publicUrl: ctx.config.publicUrl }, input),
    ),

  /** The shopper asks to return or exchange some of the order; limited per address and per order. */
  requestReturn: publicProcedure.input(requestReturnInput).mutation(async ({ ctx, input }) => {
    const admission = await ctx.limits.returnRequests.admit(ctx.ip);
    if (!admission.taken) {
      ctx.log.warn({ event: 'security.return_rate_limited', ip: ctx.ip }, 'too many return requests');
      throw new TRPCError({
        code: 'TOO_MANY_REQUESTS',
        message: 'Too many return requests from your address. Please try again later.',
        cause: new RetryLater(admission.retryAfterSeconds),
      });
    }
    const result = await requestReturn(
      { db: ctx.db, clock: ctx.clock, publicUrl: ctx.config.publicUrl },
      input,
    );
    ctx.mail.nudge();
    ctx.log.info({ event: 'returns.requested', return: result.returnId, by: 'shopper' }, 'return requested');
    return result;
  }),

  /** The shopper withdraws a return the shop has not received yet. */
  cancelReturn: publicProcedure.input(cancelReturnInput).mutation(async ({ ctx, input }) => {
    const result = await cancelReturn(
      { db: ctx.db, clock: ctx.clock, publicUrl: ctx.config.publicUrl },
      input,
    );
    ctx.mail.nudge();
    ctx.log.info({ event: 'returns.cancelled', return: input.returnId, by: 'shopper' }, 'return cancelled');
    return result;
  }),

  /**
   * A payment page for an exchange's price difference (decision 0039): Stripe Checkout, or the demo page.
   * Only while the difference is due on an approved or received exchange of a card order.
   */
  payReturnDifference: publicProcedure.input(payReturnDifferenceInput).mutation(async ({ ctx, input }) => {
    // Each call opens a payment provider session, as a checkout does: counted with checkouts per address.
    const admission = await ctx.limits.checkoutSessions.admit(ctx.ip);
    if (!admission.taken) {
      ctx.log.warn({ event: 'security.checkout_rate_limited', ip: ctx.ip }, 'too many payment sessions');
      throw new TRPCError({
        code: 'TOO_MANY_REQUESTS',
        message: 'Too many payments started from your address. Please wait a few minutes and try again.',
        cause: new RetryLater(admission.retryAfterSeconds),
      });
    }
    const result = await payReturnDifference(
      { db: ctx.db, clock: ctx.clock, publicUrl: ctx.config.publicUrl, payments: ctx.payments },
      input,
    );
    ctx.log.info(
      { event: 'returns.difference_session', return: input.returnId, mode: ctx.payments.mode },
      'price difference payment opened',
    );
    return result;
  }),

  /**
   * The shopper confirms their cash-on-delivery order, with the order page's token or the email link's.
   * Twice is once: the second answers "already_confirmed".
   */
  confirmCashOnDelivery: publicProcedure
    .input(confirmCashOnDeliveryInput)
    .mutation(async ({ ctx, input }) => {
      const result = await confirmCashOnDelivery(
        { db: ctx.db, clock: ctx.clock, publicUrl: ctx.config.publicUrl },
        input.id,
        { kind: 'shopper', token: input.token },
      );
      if (result.outcome === 'confirmed') {
        ctx.mail.nudge();
        ctx.log.info(
          { event: 'orders.cod_confirmed', order: result.number, by: 'shopper' },
          'order confirmed',
        );
      }
      return result;
    }),
});
