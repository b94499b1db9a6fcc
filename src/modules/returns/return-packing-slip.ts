import { TRPCError } from '@trpc/server';
import type { DbOrTx, ReturnStatus } from '../../db/database.js';
import { colourOptionsOf } from '../../db/json-columns.js';
import { colourKey } from '../../shared/colours.js';
import { formatMoney } from '../../shared/money.js';
import type { PostalAddress } from '../../shared/orders.js';
import { postalAddressOf } from '../orders/postal-address.js';

export type ReturnPackingSlip = {
  returnId: string;
  orderId: string;
  orderNumber: number;
  createdAt: string;
  shipTo: { name: string | null; phone: string | null; address: PostalAddress | null };
  lines: Array<{ title: string; colour: string | null; size: string; quantity: number; sku: string | null }>;
  collectOnDeliveryMinor: number | null;
  currency: string;
  carrier: string | null;
  trackingNumber: string | null;
  instructions: string;
};

/**
 * The paper that goes in an exchange's parcel: the replacement (colour, size, quantity), where it goes, and
 * the one amount the courier must know, the price difference to collect at the door. No other money is on
 * it, so any admin may print it (decision 0030). The address is the order's, shaped as the order's packing
 * slip shapes it (postalAddressOf), so the two parcels of one order read alike.
 */
export async function returnPackingSlip(db: DbOrTx, id: string): Promise<ReturnPackingSlip> {
  const r = await db
    .selectFrom('returns as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select([
      'r.id',
      'r.status',
      'r.resolution',
      'r.currency',
      'r.created_at',
      'r.exchange_carrier',
      'r.exchange_tracking',
      'r.difference_minor',
      'r.difference_status',
      'o.id as order_id',
      'o.number',
      'o.payment_method',
      'o.customer_name',
      'o.phone',
      'o.shipping_address',
    ])
    .where('r.id', '=', id)
    .executeTakeFirst();
  if (!r) throw new TRPCError({ code: 'NOT_FOUND', message: 'Return not found' });
  if (r.resolution !== 'exchange')
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'This return asks for a refund: nothing is shipped back, so it has no packing slip.',
    });
  const lines = await db
    .selectFrom('return_lines as rl')
    .innerJoin('order_lines as ol', 'ol.id', 'rl.order_line_id')
    // A product removed since keeps its title on the order line; only its SKU is gone.
    .leftJoin('products as p', 'p.id', 'ol.product_id')
    .select([
      'rl.quantity',
      'rl.exchange_colour',
      'rl.exchange_size',
      'ol.title',
      'ol.size',
      'p.sku',
      'p.colour_options',
    ])
    .where('rl.return_id', '=', id)
    .orderBy('rl.order_line_id')
    .execute();
  const address = postalAddressOf(r.shipping_address);
  // Collected at the door: set so when the exchange ships, and already true while it is packed, since a
  // cash-on-delivery order's difference due can only leave that way (closeExchange).
  const collect =
    r.difference_minor > 0 &&
    (r.difference_status === 'collect_on_delivery' ||
      (r.difference_status === 'due' && r.payment_method === 'cash_on_delivery'))
      ? r.difference_minor
      : null;
  return {
    returnId: r.id,
    orderId: r.order_id,
    orderNumber: r.number,
    createdAt: r.created_at,
    shipTo: { name: address?.name ?? r.customer_name, phone: r.phone, address },
    lines: lines.map((l) => {
      const colour = l.exchange_colour
        ? colourOptionsOf(l.colour_options ?? '[]').find((c) => colourKey(c.name) === l.exchange_colour)
        : undefined;
      return {
        title: l.title,
        // The colour's name; its key when the colour is gone from the product since.
        colour: l.exchange_colour ? (colour?.name ?? l.exchange_colour) : null,
        size: l.exchange_size ?? l.size ?? '',
        quantity: l.quantity,
        sku: l.sku ? `${l.sku}${colour?.skuSuffix ?? ''}` : null,
      };
    }),
    collectOnDeliveryMinor: collect,
    currency: r.currency,
    carrier: r.exchange_carrier,
    trackingNumber: r.exchange_tracking,
    instructions: instructionsFor(r.status, r.number, collect, r.currency),
  };
}

/** What the packer and the courier are told, by where the exchange stands. */
function instructionsFor(
  status: ReturnStatus,
  orderNumber: number,
  collect: number | null,
  currency: string,
) {
  const cash =
    collect === null
      ? 'Nothing to collect on delivery.'
      : `Collect ${formatMoney(collect, currency, { decimals: 'always' })} in cash on delivery: the price difference of the exchange.`;
  switch (status) {
    case 'requested':
    case 'approved':
      return `Exchange for order #${orderNumber}. Do not ship yet: the returned items have not come back.`;
    case 'received':
      return `Exchange for order #${orderNumber}: pack the replacement below. ${cash}`;
    case 'closed':
      return `Exchange for order #${orderNumber}, shipped. ${cash}`;
    case 'declined':
    case 'cancelled':
      return `Exchange for order #${orderNumber} was ${status}: do not ship.`;
  }
}
