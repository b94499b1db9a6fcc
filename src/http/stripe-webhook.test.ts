import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { DemoGateway } from '../modules/payments/demo-gateway.js';
import type { PaymentGateway } from '../modules/payments/payment-gateway.js';
import { createStripeClient, StripeGateway } from '../modules/payments/stripe-gateway.js';
import { buildTestApp, createTestStore, type TestStore } from '../test-support/test-store.js';

/** The webhook route asks the payment gateway whether and how a delivery is signed; it holds no Stripe client. */
describe('POST /api/stripe/webhook and the gateway', () => {
  let store: TestStore;
  let app: FastifyInstance;
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  const deliver = (headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed' }),
    });
  const stripe = createStripeClient({ secretKey: 'sk_test_x', apiUrl: 'http://127.0.0.1:9' });

  const cases: Array<[string, PaymentGateway, Record<string, string>, number, string]> = [
    ['demo payment mode', new DemoGateway(), { 'stripe-signature': 't=1,v1=ab' }, 503, 'not configured'],
    [
      'Stripe without a webhook secret',
      new StripeGateway(stripe),
      { 'stripe-signature': 't=1,v1=ab' },
      503,
      'not configured',
    ],
    [
      'a delivery without a signature',
      new StripeGateway(stripe, 'whsec_x'),
      {},
      400,
      'Missing Stripe-Signature',
    ],
    [
      'a forged signature',
      new StripeGateway(stripe, 'whsec_x'),
      { 'stripe-signature': 't=1,v1=ab' },
      400,
      'Invalid signature',
    ],
  ];
  for (const [what, payments, headers, status, message] of cases) {
    it(`answers ${status} for ${what}, and records nothing`, async () => {
      store = await createTestStore();
      app = await buildTestApp(store, { payments });
      const res = await deliver(headers);
      expect(res.statusCode).toBe(status);
      expect(res.json<{ error: string }>().error).toContain(message);
      expect(await store.handle.db.selectFrom('stripe_events').selectAll().execute()).toEqual([]);
    });
  }
});
