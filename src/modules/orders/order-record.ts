import type { DbOrTx } from '../../db/database.js';
import { refundableForUnits } from '../../shared/discounts.js';
import { chargedLineTotals, orderCharges } from '../../shared/order-charges.js';
import type { PostalAddress, Shipment } from '../../shared/orders.js';
import { postalAddressOf } from './postal-address.js';

/**
 * One order as the after-sale parts read it (the shopper's page, the admin's detail, the emails): its row,
 * its lines with what was refunded of each, and its refunds. Null when there is no such order.
 */
export async function loadOrderRecord(db: DbOrTx, id: string) {
  const order = await db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
  if (!order) return null;
  const lines = await db
    .selectFrom('order_lines')
    .select([
      'id',
      'product_id',
      'title',
      'colour',
      'size',
      'quantity',
      'refunded_quantity',
      'unit_price_minor',
      'line_total_minor',
      'image_url',
      'regular_unit_price_minor',
      'discount_minor',
      'sale_name',
    ])
    .where('order_id', '=', id)
    .orderBy('id')
    .execute();
  const refunds = await db
    .selectFrom('refunds')
    .selectAll()
    .where('order_id', '=', id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const paidMinor = order.total_minor ?? order.subtotal_minor;
  // An exchange's paid difference given back was money besides the total (decision 0039): listed with the
  // refunds, but not part of what the order's own refunded amount holds.
  const besides = new Set(
    (
      await db
        .selectFrom('returns')
        .select('difference_refund_id')
        .where('order_id', '=', id)
        .where('difference_minor', '>', 0)
        .where('difference_refund_id', 'is not', null)
        .execute()
    ).map((r) => r.difference_refund_id),
  );
  const refundedMinor = refunds
    .filter((r) => r.status === 'succeeded' && !besides.has(r.id))
    .reduce((s, r) => s + r.amount_minor, 0);
  const shipment: Shipment | null =
    order.carrier && order.tracking_number && order.shipped_at
      ? {
          carrier: order.carrier,
          trackingNumber: order.tracking_number,
          trackingUrl: order.tracking_url,
          shippedAt: order.shipped_at,
        }
      : null;
  const shippingAddress: PostalAddress | null = postalAddressOf(order.shipping_address);
  // What each line was charged in the end, which is all a refund of it may give back.
  const charged = chargedLineTotals(
    order.discount_minor,
    lines.map((l) => ({ lineTotalMinor: l.line_total_minor, discountMinor: l.discount_minor })),
  );
  return {
    order,
    lines: lines.map((l, i) => ({
      id: l.id,
      productId: l.product_id,
      title: l.title,
      /** The colour's name as bought; null for a product without colours. */
      colour: l.colour,
      size: l.size,
      quantity: l.quantity,
      refundedQuantity: l.refunded_quantity,
      unitPriceMinor: l.unit_price_minor,
      /** What the line was charged: unit × quantity less its share of the code. */
      lineTotalMinor: l.line_total_minor,
      image: l.image_url,
      /** The price before the sale; null on lines from before sales (decision 0037). */
      regularUnitPriceMinor: l.regular_unit_price_minor,
      /** The line's share of the code. */
      discountMinor: l.discount_minor,
      saleName: l.sale_name,
      /** At most what a refund of this line's remaining units can give back (refundableForUnits). */
      /** What refunds reckon the line was charged: lineTotalMinor, less its part of a discount only the
       * order carries (one Stripe applied). */
      chargedTotalMinor: charged[i] ?? l.line_total_minor,
      refundableMinor: refundableForUnits(
        {
          quantity: l.quantity,
          lineTotalMinor: charged[i] ?? l.line_total_minor,
          refundedQuantity: l.refunded_quantity,
        },
        l.quantity - l.refunded_quantity,
      ),
    })),
    refunds,
    paidMinor,
    refundedMinor,
    /** Promised back but not yet confirmed by the payment provider. */
    refundPendingMinor: order.refunded_minor - refundedMinor,
    // Cash on delivery gives back at most the cash collected at the door (decision 0038).
    refundableMinor:
      order.status === 'paid'
        ? (order.payment_method === 'cash_on_delivery' ? (order.collected_minor ?? 0) : paidMinor) -
          order.refunded_minor
        : 0,
    /** The totals every view shows: subtotal − discount + adjustments = total. */
    charges: orderCharges(
      {
        subtotalMinor: order.subtotal_minor,
        paidMinor,
        discountMinor: order.discount_minor,
        discountCode: order.discount_code,
      },
      lines.map((l) => ({ lineTotalMinor: l.line_total_minor, discountMinor: l.discount_minor })),
    ),
    shipment,
    shippingAddress,
  };
}

export type OrderRecord = NonNullable<Awaited<ReturnType<typeof loadOrderRecord>>>;
