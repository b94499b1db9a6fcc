import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fulfilment, OrderStatus } from '../../db/database.js';
import { PAYMENT_METHODS, PAYMENT_STEPS, paymentStep } from '../../shared/payment-methods.js';
import { insertOfflineOrder } from '../../test-support/offline-orders.js';
import { insertOrderRow, ownerSession as owner } from '../../test-support/orders.js';
import { createTestStore, type TestStore, tickingClock } from '../../test-support/test-store.js';
import { CSV_COLUMNS, orderCsvRows } from './orders-csv.js';

const STATUSES: OrderStatus[] = ['pending', 'processing', 'paid', 'payment_failed', 'expired'];
const FULFILMENTS: Fulfilment[] = ['unfulfilled', 'shipped', 'delivered', 'cancelled'];

/**
 * The orders list by method and step (decision 0038), on the engine under test: the SQL of every step picks
 * exactly the orders paymentStep names so; the cash-on-delivery figures add up by hand; the CSV's last two
 * columns carry the method and the step.
 */
describe('the orders list by payment method and step', () => {
  let store: TestStore;
  const clock = tickingClock();
  beforeEach(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
  });
  afterEach(async () => store.cleanup());
  const admin = () => store.caller({ clock, admin: owner }).admin.orders;

  it('every step filter returns exactly the orders whose paymentStep is that step, over every method, status and fulfilment', async () => {
    const expected = new Map<string, string>();
    let n = 2000;
    for (const method of PAYMENT_METHODS)
      for (const status of STATUSES)
        for (const fulfilment of FULFILMENTS) {
          n += 1;
          const id = `ord_${method}_${status}_${fulfilment}`;
          await insertOrderRow(store.handle.db, {
            id,
            number: n,
            created_at: new Date(Date.UTC(2026, 10, 1) + n * 1000).toISOString(),
            status,
            fulfilment,
            payment_method: method,
            subtotal_minor: 1_000,
            total_minor: 1_000,
          });
          expected.set(id, paymentStep(method, status, fulfilment));
        }
    const listed = async (filter: Parameters<ReturnType<typeof admin>['list']>[0]) =>
      (await admin().list({ ...filter, limit: 100 })).items;
    for (const step of PAYMENT_STEPS) {
      const items = await listed({ step });
      const want = [...expected].filter(([, s]) => s === step).map(([id]) => id);
      expect(items.map((i) => i.id).sort(), step).toEqual(want.sort());
      for (const i of items) expect(i.step).toBe(step);
    }
    for (const method of PAYMENT_METHODS) {
      const items = await listed({ method });
      // The default list leaves out expired checkouts, whatever the method.
      expect(items).toHaveLength(FULFILMENTS.length * (STATUSES.length - 1));
      expect(new Set(items.map((i) => i.paymentMethod))).toEqual(new Set([method]));
    }
    const both = await listed({ method: 'cash_on_delivery', step: 'shipped' });
    expect(both.map((i) => i.id)).toEqual(['ord_cash_on_delivery_processing_shipped']);
    expect(both[0]).toMatchObject({ stage: 'Shipped', step: 'shipped' });
    const card = await listed({ method: 'card', step: 'paid' });
    expect(card[0]).toMatchObject({ stage: 'Paid', paymentMethod: 'card' });
  });

  it('sums the return-to-origin rate and the cash awaiting per currency, never across currencies', async () => {
    const db = store.handle.db;
    let n = 3000;
    const add = async (
      status: OrderStatus,
      fulfilment: Fulfilment,
      currency: string,
      unitPriceMinor: number,
      method: 'cash_on_delivery' | 'bank_transfer' = 'cash_on_delivery',
    ) => {
      n += 1;
      await insertOfflineOrder(db, {
        id: `ord_${n}`,
        number: n,
        method,
        status,
        fulfilment,
        currency,
        lines: [{ productId: 'p', size: 'M', quantity: 1, unitPriceMinor }],
        feeMinor: 200,
        stock: 'none',
      });
    };
    // Collected: 3; returned: 1 → 1 ÷ 4.
    await add('paid', 'delivered', 'pkr', 10_000);
    await add('paid', 'delivered', 'pkr', 20_000);
    await add('paid', 'delivered', 'usd', 3_000);
    await add('payment_failed', 'cancelled', 'pkr', 5_000);
    // Awaiting: pkr 10,000 + 200 and 2,500 + 200 (one shipped); usd 1,999 + 200. Not: pending, cancelled, bank.
    await add('processing', 'unfulfilled', 'pkr', 10_000);
    await add('processing', 'shipped', 'pkr', 2_500);
    await add('processing', 'unfulfilled', 'usd', 1_999);
    await add('processing', 'cancelled', 'pkr', 99_999);
    await add('pending', 'unfulfilled', 'pkr', 77_777);
    await add('paid', 'unfulfilled', 'pkr', 55_555, 'bank_transfer');
    await add('payment_failed', 'unfulfilled', 'pkr', 55_555, 'bank_transfer');
    const { summary } = await admin().list({});
    expect(summary).toEqual({
      returnToOriginRate: 0.25,
      returned: 1,
      collected: 3,
      cashAwaiting: [
        { currency: 'pkr', amountMinor: 12_900, orders: 2 },
        { currency: 'usd', amountMinor: 2_199, orders: 1 },
      ],
    });
  });

  it('has no rate before any cash-on-delivery order came back or was collected', async () => {
    expect((await admin().list({})).summary).toEqual({
      returnToOriginRate: null,
      returned: 0,
      collected: 0,
      cashAwaiting: [],
    });
  });

  it('the CSV has payment_method and payment_step after the columns before them, unchanged', async () => {
    // Returns' columns came after them (decision 0039): they keep their places, 25th and 26th.
    const step = CSV_COLUMNS.indexOf('payment_step');
    expect(CSV_COLUMNS.slice(23, 26)).toEqual(['line_discount', 'payment_method', 'payment_step']);
    expect(CSV_COLUMNS.slice(0, 3)).toEqual(['order_number', 'order_id', 'paid_at']);
    const db = store.handle.db;
    await insertOfflineOrder(db, {
      id: 'ord_csv1',
      number: 4001,
      method: 'cash_on_delivery',
      status: 'paid',
      fulfilment: 'delivered',
      lines: [{ productId: 'p', size: 'M', quantity: 1, unitPriceMinor: 1_000 }],
      stock: 'none',
    });
    await insertOfflineOrder(db, {
      id: 'ord_csv2',
      number: 4002,
      method: 'bank_transfer',
      status: 'paid',
      fulfilment: 'shipped',
      lines: [{ productId: 'p', size: 'M', quantity: 1, unitPriceMinor: 1_000 }],
      stock: 'none',
      createdAt: '2026-11-22T09:30:00.000Z',
    });
    let text = '';
    for await (const row of orderCsvRows(db, { from: '2026-11-22', to: '2026-11-23' })) text += row;
    const rows = text.trim().split('\r\n');
    expect(rows[0]?.split(',').slice(step - 1, step + 1)).toEqual(['payment_method', 'payment_step']);
    expect(rows[1]?.split(',').slice(step - 1, step + 1)).toEqual(['cash_on_delivery', 'collected']);
    expect(rows[2]?.split(',').slice(step - 1, step + 1)).toEqual(['bank_transfer', 'shipped']);
    expect(rows[1]?.split(',')).toHaveLength(CSV_COLUMNS.length);
  });
});
