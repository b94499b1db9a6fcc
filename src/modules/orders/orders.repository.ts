import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { DbOrTx, OrderStatus, PaymentMethodId } from '../../db/database.js';
import { oneAtATime } from '../../db/engine-sql.js';
import type { OrderSummary } from '../../shared/checkout.js';
import type { FitKey } from '../../shared/fit-finder.js';
import type { SessionOutcome } from '../payments/payment-gateway.js';
import { newAccessToken, orderPagePath } from './order-access.js';
import { recordOrderEvent } from './order-events.repository.js';

export type NewOrderLine = {
  productId: string;
  title: string;
  /** The colour's name; null for a product without colours. */
  colour: string | null;
  size: string | null;
  quantity: number;
  /** The price charged per unit: the sale price when a sale covers the line (decision 0037). */
  unitPriceMinor: number;
  imageUrl: string | null;
  /** The price before any sale; the unit price when absent. */
  regularUnitPriceMinor?: number;
  saleId?: string | null;
  saleName?: string | null;
  /** The line's share of the order's code. */
  discountMinor?: number;
  /** The fit finder's measurements in cm the shopper bought it with (decision 0040). */
  fitCm?: Partial<Record<FitKey, number>> | null;
};

/** The code an order is made with and what sales took off (decision 0037). */
export type NewOrderDiscounts = {
  /** The code's total (the sum of the lines' shares). */
  discountMinor: number;
  salesMinor: number;
  /** The code as the owner spells it, and its discount's id; null without a code. */
  code: string | null;
  discountId: string | null;
};

export function newOrderId(): string {
  return `ord_${randomBytes(12).toString('base64url')}`;
}

/** Inserts a pending order and its line snapshot; call inside a transaction. */
export async function insertPendingOrder(
  trx: DbOrTx,
  order: {
    id: string;
    currency: string;
    paymentMode: 'stripe' | 'demo';
    /** Cash on delivery or bank transfer (decision 0038); a card when left out. */
    paymentMethod?: PaymentMethodId;
    lines: NewOrderLine[];
    now: Date;
    discounts?: NewOrderDiscounts;
  },
): Promise<{ number: number; subtotalMinor: number }> {
  await oneAtATime(trx, 'orders.number');
  const last = await trx
    .selectFrom('orders')
    .select(sql<number | null>`max(number)`.as('n'))
    .executeTakeFirst();
  const number = (last?.n ?? 1000) + 1;
  // At sale prices, before the code: subtotal_minor − discount_minor is what the lines are charged.
  const subtotalMinor = order.lines.reduce((sum, l) => sum + l.unitPriceMinor * l.quantity, 0);
  const discounts = order.discounts;
  const iso = order.now.toISOString();
  await trx
    .insertInto('orders')
    .values({
      id: order.id,
      number,
      status: 'pending',
      payment_mode: order.paymentMode,
      currency: order.currency,
      subtotal_minor: subtotalMinor,
      total_minor: null,
      customer_email: null,
      customer_name: null,
      shipping_address: null,
      billing_address: null,
      stripe_session_id: null,
      created_at: iso,
      updated_at: iso,
      paid_at: null,
      access_token: newAccessToken(),
      ...(discounts
        ? {
            discount_minor: discounts.discountMinor,
            sales_minor: discounts.salesMinor,
            discount_code: discounts.code,
            discount_id: discounts.discountId,
          }
        : {}),
    })
    .execute();
  await recordOrderEvent(trx, {
    orderId: order.id,
    kind: 'created',
    actor: 'shopper',
    detail: { paymentMode: order.paymentMode, paymentMethod: order.paymentMethod ?? 'card' },
    at: order.now,
  });
  await trx
    .insertInto('order_lines')
    .values(
      order.lines.map((l) => ({
        order_id: order.id,
        product_id: l.productId,
        title: l.title,
        colour: l.colour,
        size: l.size,
        quantity: l.quantity,
        unit_price_minor: l.unitPriceMinor,
        line_total_minor: l.unitPriceMinor * l.quantity - (l.discountMinor ?? 0),
        image_url: l.imageUrl,
        regular_unit_price_minor: l.regularUnitPriceMinor ?? l.unitPriceMinor,
        discount_minor: l.discountMinor ?? 0,
        sale_id: l.saleId ?? null,
        sale_name: l.saleName ?? null,
        fit_cm: l.fitCm ? JSON.stringify(l.fitCm) : null,
      })),
    )
    .execute();
  return { number, subtotalMinor };
}

export async function attachSession(
  db: DbOrTx,
  orderId: string,
  sessionId: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('orders')
    .set({ stripe_session_id: sessionId, updated_at: now.toISOString() })
    .where('id', '=', orderId)
    .execute();
}

export async function deleteOrder(db: DbOrTx, orderId: string): Promise<void> {
  await db.deleteFrom('orders').where('id', '=', orderId).execute();
}

export async function findOrderIdBySession(db: DbOrTx, sessionId: string) {
  return db
    .selectFrom('orders')
    .select(['id', 'status', 'payment_mode', 'subtotal_minor', 'discount_minor'])
    .where('stripe_session_id', '=', sessionId)
    .executeTakeFirst();
}

export async function orderSummaryBySession(db: DbOrTx, sessionId: string): Promise<OrderSummary | null> {
  const order = await db
    .selectFrom('orders')
    .select([
      'id',
      'number',
      'status',
      'currency',
      'subtotal_minor',
      'total_minor',
      'payment_mode',
      'access_token',
      'paid_at',
    ])
    .where('stripe_session_id', '=', sessionId)
    .executeTakeFirst();
  if (!order) return null;
  const lines = await orderLines(db, order.id);
  return {
    number: order.number,
    status: order.status,
    currency: order.currency,
    subtotalMinor: order.subtotal_minor,
    totalMinor: order.total_minor,
    paymentMode: order.payment_mode,
    lines,
    // The session id is the shopper's own secret already: its holder may follow on to the order page.
    orderPagePath:
      order.paid_at !== null && order.access_token ? orderPagePath(order.id, order.access_token) : null,
  };
}

export async function orderLines(db: DbOrTx, orderId: string) {
  const rows = await db
    .selectFrom('order_lines')
    .select([
      'product_id',
      'title',
      'colour',
      'size',
      'quantity',
      'unit_price_minor',
      'line_total_minor',
      'image_url',
    ])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return rows.map((l) => ({
    productId: l.product_id,
    title: l.title,
    colour: l.colour,
    size: l.size,
    quantity: l.quantity,
    unitPriceMinor: l.unit_price_minor,
    lineTotalMinor: l.line_total_minor,
    image: l.image_url,
  }));
}

/** The order a provider's session outcome is about: the one with that session, or the id the session carries. */
export async function findOrderOfSession(db: DbOrTx, sessionId: string, orderId: string | null) {
  return db
    .selectFrom('orders')
    .select(['id', 'status', 'payment_mode', 'subtotal_minor'])
    .where((eb) =>
      eb.or([eb('stripe_session_id', '=', sessionId), ...(orderId ? [eb('id', '=', orderId)] : [])]),
    )
    .executeTakeFirst();
}

/**
 * Moves an order to the outcome's status with what the provider told of the payment, only while it still
 * has the status it was read with (`from`).
 */
export async function moveOrderToOutcome(
  db: DbOrTx,
  order: { id: string; from: OrderStatus },
  outcome: SessionOutcome,
  now: Date,
): Promise<void> {
  const iso = now.toISOString();
  await db
    .updateTable('orders')
    .set({
      status: outcome.status,
      updated_at: iso,
      ...(outcome.status === 'paid' ? { paid_at: iso } : {}),
      ...(outcome.amountTotalMinor !== null ? { total_minor: outcome.amountTotalMinor } : {}),
      ...(outcome.customerEmail ? { customer_email: outcome.customerEmail } : {}),
      ...(outcome.customerName ? { customer_name: outcome.customerName } : {}),
      ...(outcome.shippingAddress ? { shipping_address: JSON.stringify(outcome.shippingAddress) } : {}),
      ...(outcome.billingAddress ? { billing_address: JSON.stringify(outcome.billingAddress) } : {}),
      ...(outcome.paymentIntentId ? { payment_intent_id: outcome.paymentIntentId } : {}),
      // A Stripe promotion code the shopper entered on Stripe's page (never with a store code): recorded.
      ...(outcome.providerDiscount
        ? {
            discount_minor: outcome.providerDiscount.amountMinor,
            discount_code: outcome.providerDiscount.code,
          }
        : {}),
    })
    .where('id', '=', order.id)
    .where('status', '=', order.from)
    .execute();
}

/** Sets the order's stock problem, the flag the admin sees on an order paid for more than was in stock. */
export async function flagStockProblem(db: DbOrTx, orderId: string, problem: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ stock_problem: problem.slice(0, 1000) })
    .where('id', '=', orderId)
    .execute();
}
