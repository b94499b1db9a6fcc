import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoShopper, insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { createStripeClient, StripeGateway } from '../payments/stripe-gateway.js';

describe('demo payment mode (no Stripe key)', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500 }]);
  });
  afterEach(async () => store.cleanup());

  it('sends the shopper to /testpayment, completes the order there, and shows it by session id', async () => {
    const caller = store.caller();
    const { url, orderNumber } = await caller.checkout.createSession({
      lines: [{ productId: 'k1', size: 'M', quantity: 2 }],
    });
    expect(url).toMatch(/^\/testpayment\?session_id=demo_[A-Za-z0-9_-]{20,}$/);
    const sessionId = decodeURIComponent(url.split('session_id=')[1] ?? '');
    expect((await caller.checkout.order({ sessionId })).status).toBe('pending');
    await caller.checkout.completeTestPayment({ sessionId, ...demoShopper });
    const order = await caller.checkout.order({ sessionId });
    expect(order).toMatchObject({
      number: orderNumber,
      status: 'paid',
      subtotalMinor: 17000,
      paymentMode: 'demo',
    });
    expect(order.lines).toEqual([
      expect.objectContaining({ title: 'Mint Lawn Kurta', size: 'M', quantity: 2, lineTotalMinor: 17000 }),
    ]);
  });

  it('refuses unknown sessions, and refuses test payments when a Stripe key is configured', async () => {
    await expect(
      store.caller().checkout.completeTestPayment({ sessionId: 'demo_nope', ...demoShopper }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const stripe = createStripeClient({ secretKey: 'sk_test_x', apiUrl: 'http://127.0.0.1:9' });
    const live = store.caller({ payments: new StripeGateway(stripe) });
    await expect(
      live.checkout.completeTestPayment({ sessionId: 'demo_any', ...demoShopper }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });
});
