import type { DbOrTx } from '../../db/database.js';
import type { DemoPaymentSummary } from '../../shared/checkout.js';
import { orderCharges } from '../../shared/order-charges.js';
import { loadOrderRecord } from '../orders/order-record.js';
import { findOrderIdBySession } from '../orders/orders.repository.js';

/**
 * What a demo payment charges for an order: its lines at their (sale) prices less the code. Demo mode
 * charges no shipping (decision 0037). The one reckoning the demo page shows and completing the payment
 * records, so they cannot disagree.
 */
export function demoAmountDue(order: { subtotal_minor: number; discount_minor: number }): number {
  return order.subtotal_minor - order.discount_minor;
}

/**
 * The demo order behind `sessionId` as its payment page shows it, read from the order's snapshot (nothing
 * priced again). Null when there is no such order or it is not a demo one.
 */
export async function demoPaymentSummary(db: DbOrTx, sessionId: string): Promise<DemoPaymentSummary | null> {
  const found = await findOrderIdBySession(db, sessionId);
  if (found?.payment_mode !== 'demo') return null;
  const record = await loadOrderRecord(db, found.id);
  if (!record) return null;
  const { order } = record;
  const totalMinor = demoAmountDue(order);
  const charges = orderCharges(
    {
      subtotalMinor: order.subtotal_minor,
      paidMinor: totalMinor,
      discountMinor: order.discount_minor,
      discountCode: order.discount_code,
    },
    record.lines,
  );
  return {
    number: order.number,
    currency: order.currency,
    lines: record.lines.map((l) => ({
      title: l.title,
      colour: l.colour,
      size: l.size,
      quantity: l.quantity,
      unitPriceMinor: l.unitPriceMinor,
      regularUnitPriceMinor: l.regularUnitPriceMinor,
      saleName: l.saleName,
      discountMinor: l.discountMinor,
      lineTotalMinor: l.lineTotalMinor,
    })),
    subtotalMinor: charges.subtotalMinor,
    salesMinor: order.sales_minor,
    discountMinor: charges.discountMinor,
    discountLabel: charges.discountLabel,
    shippingMinor: charges.adjustmentsMinor,
    totalMinor,
  };
}
