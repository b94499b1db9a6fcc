import type { Db, Fulfilment, OrderStatus, PaymentMethodId } from '../db/database.js';
import { writePaymentMethods } from '../modules/settings/payment-method-settings.js';
import { ALL_COLOURS } from '../shared/colours.js';
import { DEFAULT_PAYMENT_METHODS, type PaymentMethodSettings } from '../shared/payment-methods.js';
import { insertProducts } from './fixtures.js';
import { insertOrderRow } from './orders.js';

/** Rs 2,500.00 a kurta, in rupees, with 5 of size M in stock; a dollar dupatta beside it. */
export async function insertOfflineShop(db: Db, settings: Partial<PaymentMethodSettings> = {}) {
  await insertProducts(db, [
    { id: 'k1', title: 'Mint Lawn Kurta', price_minor: 250000, currency: 'pkr' },
    { id: 'd1', title: 'Silk Dupatta', price_minor: 3000, currency: 'usd' },
  ]);
  await db.insertInto('size_stock').values({ product_id: 'k1', size: 'M', on_hand: 5 }).execute();
  await db
    .updateTable('settings')
    .set({
      shipping_countries: JSON.stringify(['PK', 'GB']),
      shipping_options: JSON.stringify([
        { label: 'Courier', amountMinor: 15000, currency: 'pkr', minDays: 2, maxDays: 4 },
        { label: 'Standard', amountMinor: 900, currency: 'usd', minDays: 5, maxDays: 10 },
      ]),
    })
    .where('id', '=', 1)
    .execute();
  await writePaymentMethods(db, offlineSettings(settings), new Date('2026-11-01T00:00:00.000Z'));
}

/** Card, cash on delivery (PK, pkr, fee Rs 200, up to Rs 10,000) and bank transfer (PK) all on. */
export function offlineSettings(over: Partial<PaymentMethodSettings> = {}): PaymentMethodSettings {
  return {
    ...DEFAULT_PAYMENT_METHODS,
    card: { enabled: true, countries: [] },
    cashOnDelivery: {
      enabled: true,
      countries: ['PK'],
      currency: 'pkr',
      feeMinor: 20000,
      maxOrderMinor: 1_000_000,
      confirmHours: 24,
    },
    bankTransfer: {
      enabled: true,
      countries: ['PK'],
      accountDetails: 'Meezan Bank · Noor Textiles · PK36MEZN0000001234567890',
      holdDays: 3,
    },
    ...over,
  };
}

/** A shopper in Lahore, as the store's own form collects them. */
export const lahoreShopper = {
  email: 'ayesha@example.com',
  name: 'Ayesha Khan',
  phone: '0300 1234567',
  address: { line1: '12 Canal Road', city: 'Lahore', postalCode: '54000', country: 'PK' },
};

export const twoKurtas = [{ productId: 'k1', size: 'M', quantity: 2 }];

/** A line of a test order: a size of a product, at a unit price. */
export type OfflineLine = {
  productId: string;
  title?: string;
  size: string;
  quantity: number;
  unitPriceMinor: number;
};

/**
 * A cash-on-delivery or bank-transfer order written straight to the tables (placing them is checkout's): the
 * order row, its lines, and its stock as placing would leave it, `held` (the units reserved, as
 * insertPendingOrder and reserveLines leave a new order) or `sold` (the units gone from the count, as a
 * confirmation that commits the stock may leave it), for the sizes that have a stock row.
 */
export async function insertOfflineOrder(
  db: Db,
  o: {
    id: string;
    number: number;
    method: PaymentMethodId;
    status: OrderStatus;
    fulfilment?: Fulfilment;
    currency?: string;
    lines: OfflineLine[];
    feeMinor?: number;
    stock?: 'held' | 'sold' | 'none';
    createdAt?: string;
    collectedMinor?: number | null;
    email?: string | null;
    discountId?: string;
  },
): Promise<{ totalMinor: number }> {
  const created = o.createdAt ?? '2026-11-22T09:00:00.000Z';
  const subtotal = o.lines.reduce((s, l) => s + l.unitPriceMinor * l.quantity, 0);
  const fee = o.feeMinor ?? 0;
  const totalMinor = subtotal + fee;
  await insertOrderRow(db, {
    id: o.id,
    number: o.number,
    created_at: created,
    status: o.status,
    fulfilment: o.fulfilment ?? 'unfulfilled',
    currency: o.currency ?? 'pkr',
    subtotal_minor: subtotal,
    total_minor: totalMinor,
    payment_method: o.method,
    method_fee_minor: fee,
    phone: '+923001234567',
    customer_email: o.email === undefined ? 'ayesha@example.com' : o.email,
    customer_name: 'Ayesha Khan',
    access_token: `token-${o.id}`,
    stripe_session_id: null,
    paid_at: o.status === 'paid' ? created : null,
    collected_minor: o.collectedMinor ?? null,
    confirmed_at: o.method === 'cash_on_delivery' && o.status !== 'pending' ? created : null,
  });
  await db
    .insertInto('order_lines')
    .values(
      o.lines.map((l) => ({
        order_id: o.id,
        product_id: l.productId,
        title: l.title ?? l.productId,
        colour: null,
        size: l.size,
        quantity: l.quantity,
        unit_price_minor: l.unitPriceMinor,
        line_total_minor: l.unitPriceMinor * l.quantity,
        image_url: null,
        regular_unit_price_minor: l.unitPriceMinor,
      })),
    )
    .execute();
  const stock = o.stock ?? 'held';
  if (stock !== 'none') {
    for (const l of o.lines) {
      const moved = await db
        .updateTable('size_stock')
        .set((eb) =>
          stock === 'held'
            ? { reserved: eb('reserved', '+', l.quantity) }
            : { on_hand: eb('on_hand', '-', l.quantity) },
        )
        .where('product_id', '=', l.productId)
        .where('colour', '=', ALL_COLOURS)
        .where('size', '=', l.size)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) continue;
      await db
        .insertInto('stock_reservations')
        .values({
          order_id: o.id,
          product_id: l.productId,
          colour: ALL_COLOURS,
          size: l.size,
          quantity: l.quantity,
          state: stock,
          expires_at: '2026-11-25T09:00:00.000Z',
          created_at: created,
        })
        .execute();
    }
  }
  if (o.discountId)
    await db
      .insertInto('discount_redemptions')
      .values({
        discount_id: o.discountId,
        order_id: o.id,
        email: 'ayesha@example.com',
        status: 'held',
        amount_minor: 0,
        created_at: created,
        updated_at: created,
      })
      .execute();
  return { totalMinor };
}
