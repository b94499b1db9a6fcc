import { TRPCError } from '@trpc/server';
import { confirmCashOnDelivery } from '../../modules/orders/cod-confirmation.js';
import { paymentReferenceOf } from '../../modules/orders/offline-order-mail.js';
import { tokenMatches } from '../../modules/orders/order-access.js';
import { loadOrderRecord } from '../../modules/orders/order-record.js';
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
      confirmBy: method === 'cash_on_delivery' && order.status === 'pending' ? order.confirm_by : null,
      bankDetails: bank ? (await readPaymentMethods(ctx.db)).bankTransfer.accountDetails : null,
      paymentReference: bank ? paymentReferenceOf(order.number) : null,
    };
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
