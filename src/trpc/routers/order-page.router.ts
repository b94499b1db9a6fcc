import { TRPCError } from '@trpc/server';
import { tokenMatches } from '../../modules/orders/order-access.js';
import { loadOrderRecord } from '../../modules/orders/order-record.js';
import { readStoreContacts } from '../../modules/settings/settings.repository.js';
import { orderPageInput } from '../../shared/checkout-input.js';
import { type CustomerOrderView, orderStageLabel } from '../../shared/orders.js';
import { publicProcedure, router } from '../init.js';

/** The one answer to a wrong id, a wrong token and an unpaid order alike: nothing tells them apart. */
const NOT_FOUND = () => new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' });

/** orderPage.*: the shopper's own order, opened from the link in their emails. */
export const orderPageRouter = router({
  view: publicProcedure.input(orderPageInput).query(async ({ ctx, input }): Promise<CustomerOrderView> => {
    const record = await loadOrderRecord(ctx.db, input.id);
    if (!record || !tokenMatches(record.order.access_token, input.token)) throw NOT_FOUND();
    const { order } = record;
    // An unpaid checkout has no page yet: its link was never sent.
    if (order.paid_at === null) throw NOT_FOUND();
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
    };
  }),
});
