import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeStripe } from '../../test-support/fake-stripe.js';
import { insertOfflineShop, lahoreShopper, twoKurtas } from '../../test-support/offline-orders.js';
import { createTestStore, manualClock, type TestStore } from '../../test-support/test-store.js';
import { reconcilePendingOrders } from '../orders/reconcile.js';
import { createStripeClient, StripeGateway } from '../payments/stripe-gateway.js';

/**
 * A store that takes cards through Stripe takes cash on delivery and transfers beside them (decision 0038):
 * placing one never asks Stripe, and asking Stripe about pending orders (reconcile) leaves them alone.
 */
describe('offline orders in a store on Stripe', () => {
  let store: TestStore;
  let fake: FakeStripe;
  let stripe: Stripe;
  const clock = manualClock();

  beforeAll(async () => {
    fake = await new FakeStripe().start();
  });
  afterAll(async () => fake.stop());
  beforeEach(async () => {
    fake.reset();
    fake.requests.length = 0;
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertOfflineShop(store.handle.db);
    stripe = createStripeClient({ secretKey: 'sk_test_fakekey123', apiUrl: fake.url, timeoutMs: 800 });
  });
  afterEach(async () => store.cleanup());

  it('places cash on delivery and a transfer without Stripe, and reconcile leaves them pending', async () => {
    const payments = new StripeGateway(stripe);
    const shop = store.caller({ clock, payments });
    const cod = await shop.checkout.placeOrder({
      lines: twoKurtas,
      method: 'cash_on_delivery',
      customer: lahoreShopper,
    });
    const bank = await shop.checkout.placeOrder({
      lines: [{ productId: 'k1', size: 'M', quantity: 1 }],
      method: 'bank_transfer',
      customer: { ...lahoreShopper, email: 'b@example.com', phone: '0321 7654321' },
    });
    expect(fake.requests).toEqual([]);
    // A card checkout in the same store still goes to Stripe.
    const card = await shop.checkout.createSession({ lines: [{ productId: 'k1', size: 'M', quantity: 1 }] });
    expect(card.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    expect(fake.requests.filter((r) => r.path === '/v1/checkout/sessions')).toHaveLength(1);

    const asked = await reconcilePendingOrders({
      db: store.handle.db,
      payments,
      clock,
      publicUrl: 'https://shop.example',
    });
    expect(asked.checked).toBe(1);
    const rows = await store.handle.db
      .selectFrom('orders')
      .select(['id', 'status', 'payment_method', 'payment_mode', 'stripe_session_id'])
      .where('id', 'in', [cod.orderId, bank.orderId])
      .orderBy('number')
      .execute();
    expect(rows).toEqual([
      {
        id: cod.orderId,
        status: 'pending',
        payment_method: 'cash_on_delivery',
        payment_mode: 'stripe',
        stripe_session_id: null,
      },
      {
        id: bank.orderId,
        status: 'pending',
        payment_method: 'bank_transfer',
        payment_mode: 'stripe',
        stripe_session_id: null,
      },
    ]);
  });
});
