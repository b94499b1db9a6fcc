import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertDiscounts } from '../../test-support/discount-fixtures.js';
import { insertOfflineShop, lahoreShopper, twoKurtas } from '../../test-support/offline-orders.js';
import { ownerSession } from '../../test-support/orders.js';
import { createTestStore, manualClock, type TestStore } from '../../test-support/test-store.js';
import { releaseExpiredReservations } from '../stock/reservations.js';
import { expireAbandonedDemoOrders } from './abandoned-orders.js';
import { CONFIRM_TOO_LATE } from './cod-confirmation.js';
import { expireOfflineOrders } from './offline-expiry.js';

const ORIGIN = 'https://shop.example';
const HOUR = 60 * 60_000;

describe('confirming and expiring cash-on-delivery and bank-transfer orders (decision 0038)', () => {
  let store: TestStore;
  let clock = manualClock();
  beforeEach(async () => {
    clock = manualClock();
    store = await createTestStore({ env: { PUBLIC_URL: ORIGIN } });
    await insertOfflineShop(store.handle.db);
    await insertDiscounts(store.handle.db, [
      { id: 'c1', kind: 'code', name: 'Ten off', code: 'TEN', value: { percent: 10 }, maxUses: 5 },
    ]);
  });
  afterEach(async () => store.cleanup());

  const db = () => store.handle.db;
  const shop = () => store.caller({ clock });
  /** Places an order and reads the tokens the shopper was given: the order page's and the email's. */
  async function placed(
    method: 'cash_on_delivery' | 'bank_transfer' = 'cash_on_delivery',
    email = 'a@example.com',
  ) {
    const order = await shop().checkout.placeOrder({
      lines: twoKurtas,
      code: 'TEN',
      method,
      customer: { ...lahoreShopper, email },
    });
    const mail = await db()
      .selectFrom('email_outbox')
      .select('text_body')
      .where('order_id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    return {
      ...order,
      pageToken: decodeURIComponent(order.orderPath.split('token=')[1] ?? ''),
      confirmToken: mail.text_body.match(/\/confirm\?token=([A-Za-z0-9_-]+)/)?.[1] ?? '',
    };
  }
  const row = (id: string) =>
    db().selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const stock = () =>
    db()
      .selectFrom('size_stock')
      .select(['on_hand', 'reserved'])
      .where('product_id', '=', 'k1')
      .executeTakeFirstOrThrow();
  const codeUses = async () =>
    (await db().selectFrom('discounts').select('uses').where('id', '=', 'c1').executeTakeFirstOrThrow()).uses;
  const redemption = async (orderId: string) =>
    (
      await db()
        .selectFrom('discount_redemptions')
        .select('status')
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).status;
  const eventsOf = async (orderId: string) =>
    (
      await db()
        .selectFrom('order_events')
        .select(['kind', 'actor'])
        .where('order_id', '=', orderId)
        .orderBy('id')
        .execute()
    ).map((e) => `${e.kind}:${e.actor}`);
  const subjects = async (orderId: string) =>
    (
      await db()
        .selectFrom('email_outbox')
        .select('subject')
        .where('order_id', '=', orderId)
        .orderBy('created_at')
        .execute()
    ).map((e) => e.subject);

  it('confirms from the email link once: stock sold, code redeemed, the step in the timeline, the email', async () => {
    const order = await placed();
    expect(await stock()).toEqual({ on_hand: 5, reserved: 2 });
    clock.advance(3 * HOUR);
    const result = await shop().orderPage.confirmCashOnDelivery({
      id: order.orderId,
      token: order.confirmToken,
    });
    expect(result).toEqual({ outcome: 'confirmed', number: order.number });
    expect(await row(order.orderId)).toMatchObject({
      status: 'processing',
      confirmed_at: '2026-11-22T13:00:00.000Z',
      confirmed_by: 'shopper',
    });
    expect(await stock()).toEqual({ on_hand: 3, reserved: 0 });
    expect(await redemption(order.orderId)).toBe('redeemed');
    expect(await eventsOf(order.orderId)).toEqual(['created:shopper', 'confirmed:shopper']);
    expect(await subjects(order.orderId)).toEqual([
      expect.stringMatching(/^Please confirm order #\d+/),
      expect.stringMatching(/^Order #\d+ confirmed/),
    ]);
    // Again (the link clicked twice): already confirmed, nothing more happens.
    expect(
      await shop().orderPage.confirmCashOnDelivery({ id: order.orderId, token: order.pageToken }),
    ).toEqual({
      outcome: 'already_confirmed',
      number: order.number,
    });
    expect(await eventsOf(order.orderId)).toHaveLength(2);
    expect(await stock()).toEqual({ on_hand: 3, reserved: 0 });
    const view = await shop().orderPage.view({ id: order.orderId, token: order.pageToken });
    expect(view).toMatchObject({ step: 'confirmed', stepLabel: 'Confirmed, cash due', confirmBy: null });
    // A confirmed order never expires.
    clock.advance(100 * HOUR);
    expect(await expireOfflineOrders(db(), clock.now(), ORIGIN)).toBe(0);
    expect((await row(order.orderId)).status).toBe('processing');
  });

  it("confirms with the order page's token too; a wrong token or another order's is not found", async () => {
    await db().updateTable('size_stock').set({ on_hand: 10 }).execute();
    const a = await placed();
    const b = await placed('cash_on_delivery', 'b@example.com');
    for (const token of ['nope', b.pageToken, b.confirmToken, `${a.confirmToken}x`]) {
      await expect(shop().orderPage.confirmCashOnDelivery({ id: a.orderId, token })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'Order not found',
      });
    }
    await expect(
      shop().orderPage.confirmCashOnDelivery({ id: 'ord_nope', token: a.pageToken }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // The bank transfer order's page token does not make it confirmable.
    const bank = await placed('bank_transfer', 'c@example.com');
    await expect(
      shop().orderPage.confirmCashOnDelivery({ id: bank.orderId, token: bank.pageToken }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await shop().orderPage.confirmCashOnDelivery({ id: a.orderId, token: a.pageToken })).toMatchObject(
      {
        outcome: 'confirmed',
      },
    );
  });

  it('20 confirmations at once (links and admins) confirm once', async () => {
    const order = await placed();
    const admin = store.caller({ clock, admin: ownerSession });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        i % 3 === 0
          ? admin.admin.orders.confirmCashOnDelivery({ id: order.orderId })
          : shop().orderPage.confirmCashOnDelivery({
              id: order.orderId,
              token: i % 2 ? order.confirmToken : order.pageToken,
            }),
      ),
    );
    const outcomes = results.map((r) => (r.status === 'fulfilled' ? r.value.outcome : String(r.reason)));
    expect(outcomes.filter((o) => o === 'confirmed')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'already_confirmed')).toHaveLength(19);
    expect((await eventsOf(order.orderId)).filter((e) => e.startsWith('confirmed:'))).toHaveLength(1);
    expect(await stock()).toEqual({ on_hand: 3, reserved: 0 });
    expect(await codeUses()).toBe(1);
    expect(await subjects(order.orderId)).toHaveLength(2);
  });

  it('the admin confirms after a call: the actor is the admin, audited; not a bank order', async () => {
    const order = await placed();
    const staff = store.caller({
      clock,
      admin: { ...ownerSession, id: 2, email: 'staff@shop.example', role: 'staff' },
    });
    expect(await staff.admin.orders.confirmCashOnDelivery({ id: order.orderId })).toMatchObject({
      outcome: 'confirmed',
    });
    expect((await row(order.orderId)).confirmed_by).toBe('staff@shop.example');
    expect(await eventsOf(order.orderId)).toContain('confirmed:staff@shop.example');
    const audit = await db()
      .selectFrom('admin_audit')
      .select(['admin_email', 'target'])
      .where('action', '=', 'admin.orders.confirmCashOnDelivery')
      .execute();
    expect(audit).toEqual([{ admin_email: 'staff@shop.example', target: order.orderId }]);
    const bank = await placed('bank_transfer', 'c@example.com');
    await expect(staff.admin.orders.confirmCashOnDelivery({ id: bank.orderId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'This order is not paid cash on delivery.',
    });
  });

  it('past the deadline it cannot be confirmed; the sweep expires it and the unpaid transfer, giving stock and code back', async () => {
    const cod = await placed();
    const bank = await placed('bank_transfer', 'b@example.com');
    expect(await stock()).toEqual({ on_hand: 5, reserved: 4 });
    expect(await codeUses()).toBe(2);

    clock.advance(24 * HOUR - 1);
    expect(await expireOfflineOrders(db(), clock.now(), ORIGIN)).toBe(0);
    clock.advance(1);
    await expect(
      shop().orderPage.confirmCashOnDelivery({ id: cod.orderId, token: cod.confirmToken }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: CONFIRM_TOO_LATE,
    });
    // The stock's own sweep may release the hold first: the order's sweep still expires it.
    expect(await releaseExpiredReservations(db(), new Date(clock.now().getTime() + 1))).toBe(1);
    expect(await expireOfflineOrders(db(), clock.now(), ORIGIN)).toBe(1);
    expect(await row(cod.orderId)).toMatchObject({ status: 'expired' });
    expect(await row(bank.orderId)).toMatchObject({ status: 'pending' });
    expect(await stock()).toEqual({ on_hand: 5, reserved: 2 });
    expect(await redemption(cod.orderId)).toBe('released');
    expect(await codeUses()).toBe(1);
    expect(await eventsOf(cod.orderId)).toEqual(['created:shopper', 'expired:store']);
    expect((await subjects(cod.orderId))[1]).toMatch(/^Order #\d+ has been cancelled/);
    await expect(
      shop().orderPage.confirmCashOnDelivery({ id: cod.orderId, token: cod.pageToken }),
    ).rejects.toMatchObject({
      message: CONFIRM_TOO_LATE,
    });
    // The expired order keeps its page.
    expect(await shop().orderPage.view({ id: cod.orderId, token: cod.pageToken })).toMatchObject({
      step: 'expired',
    });

    clock.advance(2 * 24 * HOUR);
    expect(await expireOfflineOrders(db(), clock.now(), ORIGIN)).toBe(1);
    expect(await row(bank.orderId)).toMatchObject({ status: 'expired' });
    expect(await stock()).toEqual({ on_hand: 5, reserved: 0 });
    expect(await codeUses()).toBe(0);
    const [, expired] = await db()
      .selectFrom('email_outbox')
      .select('text_body')
      .where('order_id', '=', bank.orderId)
      .orderBy('created_at')
      .execute();
    expect(expired?.text_body).toContain('We did not receive the transfer');
    expect(await expireOfflineOrders(db(), clock.now(), ORIGIN)).toBe(0);
  });

  it('in demo mode, the abandoned-checkout sweep leaves a cash-on-delivery order alone at 75 minutes', async () => {
    const cod = await placed();
    const card = await shop().checkout.createSession({
      lines: [{ productId: 'k1', size: 'M', quantity: 1 }],
    });
    clock.advance(80 * 60_000);
    expect(await expireAbandonedDemoOrders(db(), clock.now())).toBe(1);
    expect(await row(cod.orderId)).toMatchObject({ status: 'pending', payment_mode: 'demo' });
    expect(await releaseExpiredReservations(db(), clock.now())).toBe(1);
    expect(await stock()).toEqual({ on_hand: 5, reserved: 2 });
    expect(card.orderNumber).toBeGreaterThan(cod.number);
    expect(
      await shop().orderPage.confirmCashOnDelivery({ id: cod.orderId, token: cod.confirmToken }),
    ).toMatchObject({
      outcome: 'confirmed',
    });
  });
});
