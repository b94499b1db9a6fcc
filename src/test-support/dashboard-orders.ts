import type { Insertable } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { insertOrderRow } from './orders.js';

type OrderRow = Insertable<Database['orders']>;

export type DashboardLineSeed = {
  productId: string;
  title?: string;
  colour?: string | null;
  size?: string;
  quantity: number;
  unitPriceMinor: number;
  /** What the line was charged (after its share of the code); unit × quantity less `discountMinor` by default. */
  lineTotalMinor?: number;
  discountMinor?: number;
  regularUnitPriceMinor?: number | null;
};

export type DashboardOrderSeed = {
  id: string;
  number: number;
  currency: string;
  method?: 'card' | 'cash_on_delivery' | 'bank_transfer';
  status?: OrderRow['status'];
  fulfilment?: OrderRow['fulfilment'];
  paidAt: string | null;
  email?: string | null;
  totalMinor: number;
  subtotalMinor?: number;
  salesMinor?: number;
  discountMinor?: number;
  discountCode?: string | null;
  lines: DashboardLineSeed[];
};

/** An order and its lines written straight to the tables, as the overview's and the CSV's tests need them. */
export async function insertDashboardOrder(db: Db, seed: DashboardOrderSeed): Promise<void> {
  const created = seed.paidAt ?? '2026-11-01T00:00:00.000Z';
  await insertOrderRow(db, {
    id: seed.id,
    number: seed.number,
    created_at: created,
    status: seed.status ?? 'paid',
    fulfilment: seed.fulfilment ?? 'unfulfilled',
    paid_at: seed.paidAt,
    currency: seed.currency,
    payment_method: seed.method ?? 'card',
    total_minor: seed.totalMinor,
    subtotal_minor: seed.subtotalMinor ?? seed.totalMinor,
    sales_minor: seed.salesMinor ?? 0,
    discount_minor: seed.discountMinor ?? 0,
    discount_code: seed.discountCode ?? null,
    customer_email: seed.email ?? null,
  });
  for (const l of seed.lines) {
    await db
      .insertInto('order_lines')
      .values({
        order_id: seed.id,
        product_id: l.productId,
        title: l.title ?? `Product ${l.productId}`,
        colour: l.colour ?? null,
        size: l.size ?? 'M',
        quantity: l.quantity,
        unit_price_minor: l.unitPriceMinor,
        line_total_minor: l.lineTotalMinor ?? l.unitPriceMinor * l.quantity - (l.discountMinor ?? 0),
        discount_minor: l.discountMinor ?? 0,
        regular_unit_price_minor: l.regularUnitPriceMinor ?? null,
        image_url: null,
        sale_id: null,
        sale_name: l.regularUnitPriceMinor ? 'Winter sale' : null,
      })
      .execute();
  }
}

export async function insertRefund(
  db: Db,
  r: {
    id: string;
    orderId: string;
    amountMinor: number;
    currency: string;
    status: 'pending' | 'succeeded' | 'failed';
    at: string;
  },
): Promise<void> {
  await db
    .insertInto('refunds')
    .values({
      id: r.id,
      order_id: r.orderId,
      amount_minor: r.amountMinor,
      currency: r.currency,
      reason: null,
      status: r.status,
      provider: 'demo',
      provider_refund_id: null,
      failure: null,
      admin_email: 'owner@shop.example',
      created_at: r.at,
      updated_at: r.at,
    })
    .execute();
}

export async function insertBareReturn(
  db: Db,
  r: { id: string; orderId: string; status: Insertable<Database['returns']>['status']; at: string },
): Promise<void> {
  await db
    .insertInto('returns')
    .values({
      id: r.id,
      order_id: r.orderId,
      status: r.status,
      reason: 'too_small',
      reason_text: null,
      resolution: 'refund',
      decline_reason: r.status === 'declined' ? 'Worn' : null,
      condition_note: null,
      exchange_carrier: null,
      exchange_tracking: null,
      refunded_minor: null,
      currency: 'usd',
      created_at: r.at,
      updated_at: r.at,
      approved_at: null,
      received_at: null,
      closed_at: null,
    })
    .execute();
}
