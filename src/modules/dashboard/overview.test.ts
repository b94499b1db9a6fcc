import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DashboardView } from '../../shared/dashboard.js';
import { insertBareReturn, insertDashboardOrder, insertRefund } from '../../test-support/dashboard-orders.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { ownerSession } from '../../test-support/orders.js';
import { createTestStore, manualClock, type TestStore } from '../../test-support/test-store.js';

const NOW = '2026-11-29T12:00:00.000Z';

function ownerView(view: DashboardView) {
  if (view.role !== 'owner') throw new Error('expected the owner’s view');
  return view.period;
}

describe('admin.dashboard.overview: hand-computed figures', () => {
  let store: TestStore;
  const clock = manualClock(NOW);
  const overview = (
    input: Parameters<ReturnType<TestStore['caller']>['admin']['dashboard']['overview']>[0],
  ) => store.caller({ admin: ownerSession, clock }).admin.dashboard.overview(input);

  beforeEach(async () => {
    store = await createTestStore();
    const db = store.handle.db;
    await db.updateTable('settings').set({ time_zone: 'UTC' }).where('id', '=', 1).execute();
    await insertProducts(db, [
      { id: 'p1', title: 'Lawn kurta' },
      { id: 'p2', title: 'Silk dupatta' },
      { id: 'p3', title: 'Cotton shalwar' },
    ]);
    // The period before (16–22 November): a usd card order and a pkr transfer paid in its last millisecond.
    await insertDashboardOrder(db, {
      id: 'o0',
      number: 1,
      currency: 'usd',
      paidAt: '2026-11-18T10:00:00.000Z',
      fulfilment: 'delivered',
      email: 'a@x.com',
      totalMinor: 5000,
      lines: [{ productId: 'p1', quantity: 1, unitPriceMinor: 5000 }],
    });
    await insertDashboardOrder(db, {
      id: 'o6',
      number: 7,
      currency: 'pkr',
      method: 'bank_transfer',
      paidAt: '2026-11-22T23:59:59.999Z',
      fulfilment: 'delivered',
      email: 'b@x.com',
      totalMinor: 40000,
      lines: [{ productId: 'p2', quantity: 1, unitPriceMinor: 40000 }],
    });
    // This period (23–29 November).
    // A card order on sale (5750 → 5000 a unit), by a shopper who bought before ("A@x.com " is a@x.com).
    await insertDashboardOrder(db, {
      id: 'o1',
      number: 2,
      currency: 'usd',
      paidAt: '2026-11-23T10:00:00.000Z',
      fulfilment: 'shipped',
      email: 'A@x.com ',
      totalMinor: 10000,
      salesMinor: 1500,
      lines: [
        { productId: 'p1', colour: 'Teal', quantity: 2, unitPriceMinor: 5000, regularUnitPriceMinor: 5750 },
      ],
    });
    // Cash on delivery collected: total is the lines on sale plus the fee.
    await insertDashboardOrder(db, {
      id: 'o2',
      number: 3,
      currency: 'pkr',
      method: 'cash_on_delivery',
      paidAt: '2026-11-25T08:00:00.000Z',
      fulfilment: 'delivered',
      email: 'B@X.com',
      totalMinor: 250000,
      subtotalMinor: 235000,
      salesMinor: 20000,
      lines: [{ productId: 'p2', quantity: 1, unitPriceMinor: 235000, regularUnitPriceMinor: 255000 }],
    });
    // A transfer received, with a code (EID10) taking 10000 off its lines.
    await insertDashboardOrder(db, {
      id: 'o3',
      number: 4,
      currency: 'pkr',
      method: 'bank_transfer',
      paidAt: '2026-11-27T23:30:00.000Z',
      email: 'c@x.com',
      totalMinor: 90000,
      subtotalMinor: 100000,
      discountMinor: 10000,
      discountCode: 'EID10',
      lines: [{ productId: 'p3', colour: 'Teal', quantity: 2, unitPriceMinor: 50000, discountMinor: 10000 }],
    });
    // A card order without an email, partly refunded today (and a refund pending, one failed: neither counts).
    await insertDashboardOrder(db, {
      id: 'o4',
      number: 5,
      currency: 'usd',
      paidAt: '2026-11-29T09:00:00.000Z',
      totalMinor: 5001,
      lines: [{ productId: 'p3', colour: 'Rose', quantity: 1, unitPriceMinor: 5001 }],
    });
    // Paid, then cancelled and refunded whole: still a paid order of the day the CSV lists it on.
    await insertDashboardOrder(db, {
      id: 'o5',
      number: 6,
      currency: 'usd',
      paidAt: '2026-11-24T12:00:00.000Z',
      fulfilment: 'cancelled',
      email: 'd@x.com',
      totalMinor: 2002,
      lines: [{ productId: 'p1', colour: 'Teal', quantity: 1, unitPriceMinor: 2002 }],
    });
    // Not paid: none of these is money.
    await insertDashboardOrder(db, {
      id: 'u1',
      number: 11,
      currency: 'pkr',
      method: 'cash_on_delivery',
      status: 'pending',
      paidAt: null,
      totalMinor: 9000,
      lines: [{ productId: 'p2', quantity: 1, unitPriceMinor: 9000 }],
    });
    await insertDashboardOrder(db, {
      id: 'u2',
      number: 12,
      currency: 'pkr',
      method: 'cash_on_delivery',
      status: 'processing',
      paidAt: null,
      totalMinor: 9000,
      lines: [{ productId: 'p2', quantity: 1, unitPriceMinor: 9000 }],
    });
    await insertDashboardOrder(db, {
      id: 'u3',
      number: 13,
      currency: 'pkr',
      method: 'cash_on_delivery',
      status: 'processing',
      fulfilment: 'shipped',
      paidAt: null,
      totalMinor: 9000,
      lines: [{ productId: 'p2', quantity: 1, unitPriceMinor: 9000 }],
    });
    await insertDashboardOrder(db, {
      id: 'u4',
      number: 14,
      currency: 'pkr',
      method: 'bank_transfer',
      status: 'pending',
      paidAt: null,
      totalMinor: 9000,
      lines: [{ productId: 'p2', quantity: 1, unitPriceMinor: 9000 }],
    });
    await insertDashboardOrder(db, {
      id: 'u5',
      number: 15,
      currency: 'pkr',
      method: 'cash_on_delivery',
      status: 'processing',
      fulfilment: 'delivered',
      paidAt: null,
      totalMinor: 9000,
      lines: [{ productId: 'p2', quantity: 1, unitPriceMinor: 9000 }],
    });
    // Card checkout abandoned, a cash-on-delivery order cancelled before confirmation, one returned to origin.
    await insertDashboardOrder(db, {
      id: 'u6',
      number: 16,
      currency: 'usd',
      status: 'pending',
      paidAt: null,
      totalMinor: 9000,
      lines: [{ productId: 'p1', quantity: 1, unitPriceMinor: 9000 }],
    });
    await insertDashboardOrder(db, {
      id: 'u7',
      number: 17,
      currency: 'pkr',
      method: 'cash_on_delivery',
      status: 'pending',
      fulfilment: 'cancelled',
      paidAt: null,
      totalMinor: 9000,
      lines: [{ productId: 'p2', quantity: 1, unitPriceMinor: 9000 }],
    });
    await insertDashboardOrder(db, {
      id: 'u8',
      number: 18,
      currency: 'pkr',
      method: 'cash_on_delivery',
      status: 'payment_failed',
      fulfilment: 'shipped',
      paidAt: null,
      totalMinor: 9000,
      lines: [{ productId: 'p2', quantity: 1, unitPriceMinor: 9000 }],
    });
    await insertRefund(db, {
      id: 'rf0',
      orderId: 'o0',
      amountMinor: 1000,
      currency: 'usd',
      status: 'succeeded',
      at: '2026-11-20T10:00:00.000Z',
    });
    await insertRefund(db, {
      id: 'rf1',
      orderId: 'o4',
      amountMinor: 2000,
      currency: 'usd',
      status: 'succeeded',
      at: '2026-11-29T10:00:00.000Z',
    });
    await insertRefund(db, {
      id: 'rf2',
      orderId: 'o4',
      amountMinor: 500,
      currency: 'usd',
      status: 'pending',
      at: '2026-11-29T10:00:00.000Z',
    });
    await insertRefund(db, {
      id: 'rf3',
      orderId: 'o4',
      amountMinor: 700,
      currency: 'usd',
      status: 'failed',
      at: '2026-11-29T10:00:00.000Z',
    });
    await insertRefund(db, {
      id: 'rf4',
      orderId: 'o5',
      amountMinor: 2002,
      currency: 'usd',
      status: 'succeeded',
      at: '2026-11-24T13:00:00.000Z',
    });
    await insertBareReturn(db, {
      id: 'r1',
      orderId: 'o1',
      status: 'requested',
      at: '2026-11-26T10:00:00.000Z',
    });
    await insertBareReturn(db, { id: 'r2', orderId: 'o0', status: 'closed', at: '2026-11-20T10:00:00.000Z' });
    await insertBareReturn(db, {
      id: 'r3',
      orderId: 'o2',
      status: 'declined',
      at: '2026-11-27T10:00:00.000Z',
    });
    await insertBareReturn(db, {
      id: 'r4',
      orderId: 'o6',
      status: 'received',
      at: '2026-11-01T10:00:00.000Z',
    });
  });
  afterEach(async () => {
    await store.cleanup();
  });

  it('sums each currency apart: revenue, orders, average, units, refunds, discounts', async () => {
    const period = ownerView(await overview({ preset: '7d' }));
    expect([period.range.from, period.range.to, period.previous.from, period.previous.to]).toEqual([
      '2026-11-23',
      '2026-11-29',
      '2026-11-16',
      '2026-11-22',
    ]);
    const strip = (f: (typeof period.current)[number]) => {
      const { revenueByDay: _, ...rest } = f;
      return rest;
    };
    // pkr first: the larger revenue (never compared across currencies otherwise).
    expect(period.current.map(strip)).toEqual([
      {
        currency: 'pkr',
        revenueMinor: 340000,
        orders: 2,
        averageOrderMinor: 170000,
        units: 3,
        refundedMinor: 0,
        discountsMinor: 30000,
      },
      // 17003 / 3 = 5667.67, rounded half up.
      {
        currency: 'usd',
        revenueMinor: 17003,
        orders: 3,
        averageOrderMinor: 5668,
        units: 4,
        refundedMinor: 4002,
        discountsMinor: 1500,
      },
    ]);
    expect(period.before.map(strip)).toEqual([
      {
        currency: 'pkr',
        revenueMinor: 40000,
        orders: 1,
        averageOrderMinor: 40000,
        units: 1,
        refundedMinor: 0,
        discountsMinor: 0,
      },
      {
        currency: 'usd',
        revenueMinor: 5000,
        orders: 1,
        averageOrderMinor: 5000,
        units: 1,
        refundedMinor: 1000,
        discountsMinor: 0,
      },
    ]);
    expect([period.returns, period.returnsBefore]).toEqual([2, 1]);
  });

  it('gives every day of the period a row, zero where nothing was paid', async () => {
    const period = ownerView(await overview({ preset: '7d' }));
    const usd = period.current.find((c) => c.currency === 'usd');
    const pkr = period.current.find((c) => c.currency === 'pkr');
    expect(usd?.revenueByDay).toEqual([
      { day: '2026-11-23', revenueMinor: 10000, orders: 1 },
      { day: '2026-11-24', revenueMinor: 2002, orders: 1 },
      { day: '2026-11-25', revenueMinor: 0, orders: 0 },
      { day: '2026-11-26', revenueMinor: 0, orders: 0 },
      { day: '2026-11-27', revenueMinor: 0, orders: 0 },
      { day: '2026-11-28', revenueMinor: 0, orders: 0 },
      { day: '2026-11-29', revenueMinor: 5001, orders: 1 },
    ]);
    expect(pkr?.revenueByDay.map((d) => d.revenueMinor)).toEqual([0, 0, 250000, 0, 90000, 0, 0]);
    expect(period.before.find((c) => c.currency === 'pkr')?.revenueByDay.at(-1)).toEqual({
      day: '2026-11-22',
      revenueMinor: 40000,
      orders: 1,
    });
  });

  it('a period without a sale is all zeros for the currencies of the one before', async () => {
    const period = ownerView(await overview({ preset: 'custom', from: '2026-11-19', to: '2026-11-21' }));
    expect(period.current.map((c) => [c.currency, c.revenueMinor, c.orders, c.refundedMinor])).toEqual([
      ['usd', 0, 0, 1000],
    ]);
    expect(period.before.map((c) => [c.currency, c.revenueMinor, c.orders])).toEqual([['usd', 5000, 1]]);
    expect(period.current[0]?.revenueByDay).toEqual([
      { day: '2026-11-19', revenueMinor: 0, orders: 0 },
      { day: '2026-11-20', revenueMinor: 0, orders: 0 },
      { day: '2026-11-21', revenueMinor: 0, orders: 0 },
    ]);
    const empty = ownerView(await overview({ preset: 'custom', from: '2025-01-01', to: '2025-01-02' }));
    expect(empty.current).toEqual([]);
    expect(empty.topProducts).toEqual([]);
    expect(empty.customers).toEqual({ newCustomers: 0, returning: 0 });
  });

  it('ranks products and colours by what their lines were charged, per currency', async () => {
    const period = ownerView(await overview({ preset: '7d' }));
    expect(period.topProducts).toEqual([
      { productId: 'p2', title: 'Product p2', colour: null, currency: 'pkr', revenueMinor: 235000, units: 1 },
      { productId: 'p3', title: 'Product p3', colour: null, currency: 'pkr', revenueMinor: 90000, units: 2 },
      { productId: 'p1', title: 'Product p1', colour: null, currency: 'usd', revenueMinor: 12002, units: 3 },
      { productId: 'p3', title: 'Product p3', colour: null, currency: 'usd', revenueMinor: 5001, units: 1 },
    ]);
    expect(period.topColours).toEqual([
      {
        productId: 'p3',
        title: 'Product p3',
        colour: 'Teal',
        currency: 'pkr',
        revenueMinor: 90000,
        units: 2,
      },
      {
        productId: 'p1',
        title: 'Product p1',
        colour: 'Teal',
        currency: 'usd',
        revenueMinor: 12002,
        units: 3,
      },
      { productId: 'p3', title: 'Product p3', colour: 'Rose', currency: 'usd', revenueMinor: 5001, units: 1 },
    ]);
  });

  it('splits the paid orders by payment method, and new from returning by address', async () => {
    const period = ownerView(await overview({ preset: '7d' }));
    expect(period.paymentMix).toEqual([
      { method: 'card', orders: 3, currency: 'usd', revenueMinor: 17003 },
      { method: 'bank_transfer', orders: 1, currency: 'pkr', revenueMinor: 90000 },
      { method: 'cash_on_delivery', orders: 1, currency: 'pkr', revenueMinor: 250000 },
    ]);
    // o1 (A@x.com, bought on the 18th) and o2 (B@X.com, paid on the 22nd's last millisecond) return; o3, o4
    // (no email) and o5 are new.
    expect(period.customers).toEqual({ newCustomers: 3, returning: 2 });
  });

  it('counts today’s work, each on the list it links to', async () => {
    const view = await overview({ preset: 'today' });
    expect(view.today).toEqual({
      // u1 (u7 is cancelled).
      ordersToConfirm: 1,
      // o3 and o4 paid and unfulfilled; u2 cash on delivery confirmed.
      ordersToShip: 3,
      // r1 requested, r4 received (r2 closed, r3 declined).
      returnsWaiting: 2,
      emailsFailed: 0,
      lowStockSizes: 0,
      lowStockThreshold: 2,
      // u4 transfer awaited; u3 and u5 cash on delivery out with the courier or delivered, not collected.
      paymentsWaiting: 3,
    });
  });

  it('counts failed emails and low-stock sizes with the settings’ threshold', async () => {
    const db = store.handle.db;
    for (const [id, status] of [
      ['e1', 'failed'],
      ['e2', 'failed'],
      ['e3', 'sent'],
      ['e4', 'queued'],
    ] as const)
      await db
        .insertInto('email_outbox')
        .values({
          id,
          kind: 'order_confirmation',
          order_id: 'o1',
          to_address: 'a@x.com',
          subject: 'Your order',
          html: '<p>Thanks</p>',
          text_body: 'Thanks',
          status,
          created_at: NOW,
          sent_at: status === 'sent' ? NOW : null,
          next_attempt_at: status === 'queued' ? NOW : null,
        })
        .execute();
    await db
      .insertInto('size_stock')
      .values([
        { product_id: 'p1', size: 'S', on_hand: 3, reserved: 0 },
        { product_id: 'p1', size: 'M', on_hand: 2, reserved: 0 },
        // 5 on hand, 3 held: 2 left to sell.
        { product_id: 'p1', size: 'L', on_hand: 5, reserved: 3 },
        { product_id: 'p2', size: 'M', on_hand: 0, reserved: 0 },
        { product_id: 'p3', size: 'M', on_hand: 9, reserved: 0 },
      ])
      .execute();
    // A failed team invitation: the owner's to see, so staff neither list nor count it.
    await db
      .insertInto('email_outbox')
      .values({
        id: 'e5',
        kind: 'admin_invite',
        order_id: null,
        to_address: 'new@shop.example',
        subject: 'You are invited',
        html: '<p>Join</p>',
        text_body: 'Join',
        status: 'failed',
        created_at: NOW,
        sent_at: null,
        next_attempt_at: null,
      })
      .execute();
    const today = (await overview({ preset: 'today' })).today;
    expect([today.emailsFailed, today.lowStockSizes, today.lowStockThreshold]).toEqual([3, 3, 2]);
    const staff = store.caller({ admin: { ...ownerSession, id: 2, role: 'staff' }, clock });
    expect((await staff.admin.dashboard.overview({ preset: 'today' })).today.emailsFailed).toBe(2);
    await db.updateTable('settings').set({ low_stock_threshold: 3 }).where('id', '=', 1).execute();
    const raised = (await overview({ preset: 'today' })).today;
    expect([raised.lowStockSizes, raised.lowStockThreshold]).toEqual([4, 3]);
  });

  it('gives staff today’s work and no money, and refuses a caller who is not signed in', async () => {
    const staff = store.caller({ admin: { ...ownerSession, id: 2, role: 'staff' }, clock });
    const view = await staff.admin.dashboard.overview({ preset: '30d' });
    expect(view).toEqual({ role: 'staff', today: (await overview({ preset: 'today' })).today, period: null });
    expect(JSON.stringify(view)).not.toMatch(/Minor|revenue|currency/);
    await expect(store.caller({ clock }).admin.dashboard.overview({ preset: '7d' })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('refuses a custom period longer than a year and a day', async () => {
    await expect(overview({ preset: 'custom', from: '2025-01-01', to: '2026-01-02' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(overview({ preset: 'custom', from: '2026-01-02' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});

describe('admin.dashboard.overview: a Karachi shop’s days', () => {
  let store: TestStore;
  afterEach(async () => {
    await store.cleanup();
  });

  it('cuts the days at Karachi’s midnight (19:00 UTC), not UTC’s', async () => {
    store = await createTestStore();
    const db = store.handle.db;
    await db.updateTable('settings').set({ time_zone: 'Asia/Karachi' }).where('id', '=', 1).execute();
    await insertProducts(db, [{ id: 'p1' }]);
    const line = [{ productId: 'p1', quantity: 1, unitPriceMinor: 1000 }];
    // The same UTC day (28 November), two Karachi days: the 28th's last millisecond and the 29th's first.
    await insertDashboardOrder(db, {
      id: 'k1',
      number: 1,
      currency: 'pkr',
      paidAt: '2026-11-28T18:59:59.999Z',
      totalMinor: 1000,
      lines: line,
    });
    await insertDashboardOrder(db, {
      id: 'k2',
      number: 2,
      currency: 'pkr',
      paidAt: '2026-11-28T19:00:00.000Z',
      totalMinor: 2000,
      lines: line,
    });
    // 29 November 23:59 in Karachi, and 30 November 00:00 (tomorrow there: not in today).
    await insertDashboardOrder(db, {
      id: 'k3',
      number: 3,
      currency: 'pkr',
      paidAt: '2026-11-29T18:59:00.000Z',
      totalMinor: 4000,
      lines: line,
    });
    await insertDashboardOrder(db, {
      id: 'k4',
      number: 4,
      currency: 'pkr',
      paidAt: '2026-11-29T19:00:00.000Z',
      totalMinor: 8000,
      lines: line,
    });
    // 17:00 on 29 November in Karachi.
    const clock = manualClock(NOW);
    const caller = store.caller({ admin: ownerSession, clock });
    const today = ownerView(await caller.admin.dashboard.overview({ preset: 'today' }));
    expect([today.range.from, today.range.startsAt, today.range.endsAt]).toEqual([
      '2026-11-29',
      '2026-11-28T19:00:00.000Z',
      '2026-11-29T19:00:00.000Z',
    ]);
    expect(today.current.map((c) => [c.currency, c.revenueMinor, c.orders])).toEqual([['pkr', 6000, 2]]);
    expect(today.before.map((c) => [c.currency, c.revenueMinor, c.orders])).toEqual([['pkr', 1000, 1]]);
    const week = ownerView(await caller.admin.dashboard.overview({ preset: '7d' }));
    expect(week.current[0]?.revenueByDay.slice(-2)).toEqual([
      { day: '2026-11-28', revenueMinor: 1000, orders: 1 },
      { day: '2026-11-29', revenueMinor: 6000, orders: 2 },
    ]);
  });
});
