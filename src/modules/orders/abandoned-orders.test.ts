import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoShopper, insertProducts } from '../../test-support/fixtures.js';
import { insertOrderRow, ownerSession } from '../../test-support/orders.js';
import { createTestStore, manualClock, type TestStore } from '../../test-support/test-store.js';
import { CHECKOUT_SESSION_LIFETIME_MS, expireAbandonedDemoOrders } from './abandoned-orders.js';

describe('checkouts that are never paid', () => {
  let store: TestStore;
  const clock = manualClock();
  const admin = ownerSession;

  beforeEach(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500 }]);
  });
  afterEach(async () => store.cleanup());

  const checkout = () =>
    store.caller({ clock }).checkout.createSession({ lines: [{ productId: 'k1', size: 'M', quantity: 1 }] });
  const listed = async (status?: 'expired' | 'pending') =>
    (await store.caller({ clock, admin }).admin.orders.list({ status })).items.map((o) => o.number);

  it('expire once their session has ended, and leave the admin list (still there when asked for)', async () => {
    const abandoned = await checkout();
    clock.advance(10 * 60_000);
    const recent = await checkout();
    expect(await listed()).toEqual([recent.orderNumber, abandoned.orderNumber]);

    // Within the session's lifetime (and its grace) nothing moves.
    clock.advance(CHECKOUT_SESSION_LIFETIME_MS - 10 * 60_000);
    expect(await expireAbandonedDemoOrders(store.handle.db, clock.now())).toBe(0);

    clock.advance(20 * 60_000);
    expect(await expireAbandonedDemoOrders(store.handle.db, clock.now())).toBe(1);
    expect(await listed()).toEqual([recent.orderNumber]);
    expect(await listed('expired')).toEqual([abandoned.orderNumber]);
    expect(await listed('pending')).toEqual([recent.orderNumber]);
  });

  it('a paid order never expires, and an expired demo session can no longer be paid', async () => {
    const paid = await checkout();
    const sessionOf = (url: string) => decodeURIComponent(url.split('session_id=')[1] ?? '');
    await store
      .caller({ clock })
      .checkout.completeTestPayment({ sessionId: sessionOf(paid.url), ...demoShopper });
    const late = await checkout();
    clock.advance(3 * CHECKOUT_SESSION_LIFETIME_MS);
    expect(await expireAbandonedDemoOrders(store.handle.db, clock.now())).toBe(1);
    await store
      .caller({ clock })
      .checkout.completeTestPayment({ sessionId: sessionOf(late.url), ...demoShopper });
    const order = await store.caller({ clock }).checkout.order({ sessionId: sessionOf(late.url) });
    expect(order.status).toBe('expired');
    expect(await listed()).toEqual([paid.orderNumber]);
  });

  it('leaves Stripe orders to Stripe: a missed webhook may still say they were paid', async () => {
    const now = clock.now().toISOString();
    await insertOrderRow(store.handle.db, {
      id: 'ord_stripe',
      number: 5000,
      created_at: now,
      status: 'pending',
      payment_mode: 'stripe',
      subtotal_minor: 100,
      total_minor: null,
      stripe_session_id: 'cs_test_1',
    });
    clock.advance(10 * CHECKOUT_SESSION_LIFETIME_MS);
    expect(await expireAbandonedDemoOrders(store.handle.db, clock.now())).toBe(0);
    expect(await listed('pending')).toEqual([5000]);
  });
});
