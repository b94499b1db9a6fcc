import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type Stripe from 'stripe';
import type { Clock } from '../core/clock.js';
import { createStripeClient, StripeGateway } from '../modules/payments/stripe-gateway.js';
import type { FakeStripe } from './fake-stripe.js';
import { insertProducts } from './fixtures.js';
import { buildTestApp, createTestStore, type TestStore } from './test-store.js';

/** The secret key the tests' Stripe client sends the fake (any test-mode looking key does). */
export const FAKE_STRIPE_KEY = 'sk_test_fakekey123';

/** A store's environment for a test against the fake Stripe, taking webhooks signed with `webhookSecret`. */
export function fakeStripeEnv(fake: FakeStripe, webhookSecret: string): Record<string, string> {
  return {
    PUBLIC_URL: 'https://shop.example',
    STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_URL: fake.url,
  };
}

/**
 * Posts a Stripe event to the store's webhook route, signed as Stripe signs them (with a fresh event id
 * unless the test names one).
 */
export function deliverStripeEvent(
  app: FastifyInstance,
  stripe: Stripe,
  webhookSecret: string,
  event: { type: string; object: unknown; id?: string },
): Promise<LightMyRequestResponse> {
  const body = JSON.stringify({
    id: event.id ?? `evt_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type: event.type,
    api_version: '2026-01-01',
    created: 1,
    data: { object: event.object },
  });
  return app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret: webhookSecret }),
    },
    payload: body,
  });
}

export type StripeTestStore = {
  store: TestStore;
  app: FastifyInstance;
  stripe: Stripe;
  payments: StripeGateway;
  close(): Promise<void>;
};

/**
 * A store on the engine under test that pays through the fake Stripe and takes its webhooks: one kurta
 * (k1, 85.00) to sell, `prepare` run before the app is built (settings, more rows), `close` for afterEach.
 */
export async function openStripeStore(
  fake: FakeStripe,
  webhookSecret: string,
  opts: { clock?: Clock; prepare?: (store: TestStore) => Promise<void> } = {},
): Promise<StripeTestStore> {
  const store = await createTestStore({ env: fakeStripeEnv(fake, webhookSecret) });
  await insertProducts(store.handle.db, [{ id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500 }]);
  await opts.prepare?.(store);
  const stripe = createStripeClient({ secretKey: FAKE_STRIPE_KEY, apiUrl: fake.url, timeoutMs: 800 });
  const payments = new StripeGateway(stripe, webhookSecret);
  const app = await buildTestApp(store, { payments, ...(opts.clock ? { clock: opts.clock } : {}) });
  return {
    store,
    app,
    stripe,
    payments,
    close: async () => {
      await app.close();
      await store.cleanup();
    },
  };
}
