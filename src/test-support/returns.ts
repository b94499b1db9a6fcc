import type { Db } from '../db/database.js';
import { holdExchangeUnits } from '../modules/returns/exchange-holds.js';
import { productRow } from './fixtures.js';
import { insertOrderRow } from './orders.js';

/**
 * Returns written straight to their tables, for the owner's side to act on without going through the
 * shopper's order page: a delivered order of one product, its size stock, and a return of some of its lines.
 */

export const RETURN_NOW = '2026-11-22T09:00:00.000Z';

export type OrderLineSeed = {
  productId: string;
  size: string;
  quantity: number;
  unitPriceMinor: number;
  /** The line's share of the order's code; its total is unit × quantity less this. */
  discountMinor?: number;
  colour?: string | null;
};

/** A product in sizes S–XL with tracked counts per size (colour '' = every colour). */
export async function insertStockedProduct(
  db: Db,
  id: string,
  onHand: Record<string, number>,
  fields: { priceMinor?: number; title?: string } = {},
): Promise<void> {
  await db
    .insertInto('products')
    .values({
      ...productRow({ id, title: fields.title ?? `Lawn Kurta ${id}` }),
      sku: `SKU-${id}`,
      price_minor: fields.priceMinor ?? 5000,
    })
    .execute();
  for (const [size, units] of Object.entries(onHand)) {
    await db.insertInto('size_stock').values({ product_id: id, colour: '', size, on_hand: units }).execute();
  }
}

/** A paid order delivered to the shopper (card unless said), with its lines; returns the lines' ids in order. */
export async function insertDeliveredOrder(
  db: Db,
  order: {
    id: string;
    number: number;
    lines: OrderLineSeed[];
    paymentMethod?: 'card' | 'cash_on_delivery' | 'bank_transfer';
    shippingMinor?: number;
  },
): Promise<number[]> {
  const lineTotals = order.lines.map((l) => l.unitPriceMinor * l.quantity - (l.discountMinor ?? 0));
  const discount = order.lines.reduce((s, l) => s + (l.discountMinor ?? 0), 0);
  const subtotal = order.lines.reduce((s, l) => s + l.unitPriceMinor * l.quantity, 0);
  const total = lineTotals.reduce((s, t) => s + t, 0) + (order.shippingMinor ?? 0);
  const cod = order.paymentMethod === 'cash_on_delivery';
  await insertOrderRow(db, {
    id: order.id,
    number: order.number,
    created_at: RETURN_NOW,
    subtotal_minor: subtotal,
    total_minor: total,
    discount_minor: discount,
    customer_email: 'ayesha@example.com',
    customer_name: 'Ayesha Khan',
    access_token: `token-${order.id}`,
    fulfilment: 'delivered',
    shipped_at: RETURN_NOW,
    delivered_at: RETURN_NOW,
    payment_method: order.paymentMethod ?? 'card',
    collected_minor: cod ? total : null,
  });
  const ids: number[] = [];
  for (const [i, l] of order.lines.entries()) {
    const row = await db
      .insertInto('order_lines')
      .values({
        order_id: order.id,
        product_id: l.productId,
        title: `Lawn Kurta ${l.productId}`,
        colour: l.colour ?? null,
        size: l.size,
        quantity: l.quantity,
        unit_price_minor: l.unitPriceMinor,
        line_total_minor: lineTotals[i] ?? 0,
        image_url: null,
        regular_unit_price_minor: l.unitPriceMinor,
        discount_minor: l.discountMinor ?? 0,
        sale_id: null,
        sale_name: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

export type ReturnSeed = {
  id: string;
  orderId: string;
  status?: 'requested' | 'approved' | 'declined' | 'received' | 'closed' | 'cancelled';
  reason?: 'too_small' | 'too_big' | 'not_as_pictured' | 'damaged' | 'changed_mind' | 'other';
  resolution: 'exchange' | 'refund';
  lines: Array<{ lineId: number; quantity: number; exchangeSize?: string; exchangeColour?: string }>;
  currency?: string;
  /** Hold the replacement units as the shopper's request does (exchange-holds.ts). */
  hold?: boolean;
};

export async function insertReturn(db: Db, seed: ReturnSeed): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('returns')
      .values({
        id: seed.id,
        order_id: seed.orderId,
        status: seed.status ?? 'requested',
        reason: seed.reason ?? 'too_small',
        // 'other' needs the shopper's words (a CHECK says so).
        reason_text: seed.reason === 'other' ? 'It did not suit me' : null,
        resolution: seed.resolution,
        decline_reason: null,
        condition_note: null,
        exchange_carrier: null,
        exchange_tracking: null,
        refunded_minor: null,
        currency: seed.currency ?? 'usd',
        created_at: RETURN_NOW,
        updated_at: RETURN_NOW,
        approved_at: null,
        received_at: null,
        closed_at: null,
      })
      .execute();
    for (const l of seed.lines) {
      await trx
        .insertInto('return_lines')
        .values({
          return_id: seed.id,
          order_line_id: l.lineId,
          quantity: l.quantity,
          exchange_colour: seed.resolution === 'exchange' ? (l.exchangeColour ?? '') : null,
          exchange_size: seed.resolution === 'exchange' ? (l.exchangeSize ?? null) : null,
        })
        .execute();
    }
    if (seed.hold) await holdExchangeUnits(trx, seed.id);
  });
}

export async function stockOf(db: Db, productId: string, size: string) {
  return db
    .selectFrom('size_stock')
    .select(['on_hand', 'reserved'])
    .where('product_id', '=', productId)
    .where('colour', '=', '')
    .where('size', '=', size)
    .executeTakeFirstOrThrow();
}
