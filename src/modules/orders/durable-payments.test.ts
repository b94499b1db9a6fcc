import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeStripe } from '../../test-support/fake-stripe.js';
import { demoShopper, insertProducts } from '../../test-support/fixtures.js';
import { deliverStripeEvent, FAKE_STRIPE_KEY, fakeStripeEnv } from '../../test-support/stripe-webhooks.js';
import {
  buildTestApp,
  createTestStore,
  fixedClock,
  type TestStore,
  testEngine,
} from '../../test-support/test-store.js';
import { createStripeClient, StripeGateway } from '../payments/stripe-gateway.js';
import { reconcilePendingOrders } from './reconcile.js';

const WEBHOOK_SECRET = 'whsec_durabletest123';
const NORMAL = 1;
const FULL = 2;

/**
 * Temporary triggers on the test's own connection record the synchronous level in force at the moment each
 * payment row is written: what a power cut right after the commit would find on disk depends on it.
 */
function watchSyncLevel(store: TestStore): () => Array<{ what: string; level: number }> {
  store.handle.sqlite.exec(`
    CREATE TEMP TABLE sync_seen (what TEXT, level INTEGER);
    CREATE TEMP TRIGGER seen_order_insert AFTER INSERT ON main.orders
      BEGIN INSERT INTO sync_seen SELECT 'order insert', synchronous FROM pragma_synchronous(); END;
    CREATE TEMP TRIGGER seen_order_update AFTER UPDATE ON main.orders
      BEGIN INSERT INTO sync_seen SELECT 'order update', synchronous FROM pragma_synchronous(); END;
    CREATE TEMP TRIGGER seen_event_insert AFTER INSERT ON main.stripe_events
      BEGIN INSERT INTO sync_seen SELECT 'event insert', synchronous FROM pragma_synchronous(); END;
    CREATE TEMP TRIGGER seen_product_insert AFTER INSERT ON main.products
      BEGIN INSERT INTO sync_seen SELECT 'product insert', synchronous FROM pragma_synchronous(); END;
  `);
  return () => {
    const rows = store.handle.sqlite.prepare('SELECT what, level FROM temp.sync_seen ORDER BY rowid').all();
    store.handle.sqlite.exec('DELETE FROM temp.sync_seen');
    return rows as Array<{ what: string; level: number }>;
  };
}

// SQLite's synchronous pragma; PostgreSQL flushes every commit (synchronous_commit on).
describe.skipIf(testEngine === 'postgres')(
  'payment records are written with synchronous=FULL, everything else with NORMAL',
  () => {
    let fake: FakeStripe;
    let store: TestStore;
    let app: FastifyInstance;
    let stripe: Stripe;
    let seen: () => Array<{ what: string; level: number }>;

    beforeAll(async () => {
      fake = await new FakeStripe().start();
    });
    afterAll(async () => fake.stop());
    beforeEach(async () => {
      store = await createTestStore({
        env: fakeStripeEnv(fake, WEBHOOK_SECRET),
      });
      seen = watchSyncLevel(store);
      await insertProducts(store.handle.db, [{ id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500 }]);
      stripe = createStripeClient({ secretKey: FAKE_STRIPE_KEY, apiUrl: fake.url, timeoutMs: 800 });
      app = await buildTestApp(store, { payments: new StripeGateway(stripe, WEBHOOK_SECRET) });
    });
    afterEach(async () => {
      await app.close();
      await store.cleanup();
    });

    async function checkout(): Promise<{ orderId: string; sessionId: string }> {
      const res = await app.inject({
        method: 'POST',
        url: '/api/trpc/checkout.createSession',
        headers: { 'content-type': 'application/json', origin: 'https://shop.example' },
        payload: JSON.stringify({ lines: [{ productId: 'k1', size: 'M', quantity: 1 }] }),
      });
      expect(res.statusCode).toBe(200);
      const order = await store.handle.db
        .selectFrom('orders')
        .select(['id', 'stripe_session_id'])
        .executeTakeFirstOrThrow();
      return { orderId: order.id, sessionId: order.stripe_session_id ?? '' };
    }

    it('checkout: the pending order and its session id', async () => {
      expect(seen()).toEqual([{ what: 'product insert', level: NORMAL }]);
      await checkout();
      expect(seen()).toEqual([
        { what: 'order insert', level: FULL },
        { what: 'order update', level: FULL },
      ]);
      expect(store.handle.sqlite.pragma('synchronous', { simple: true })).toBe(NORMAL);
    });

    it('webhook: the event record and the order it pays, in one FULL transaction', async () => {
      const { orderId, sessionId } = await checkout();
      seen();
      const res = await deliverStripeEvent(app, stripe, WEBHOOK_SECRET, {
        id: 'evt_durable_1',
        type: 'checkout.session.completed',
        object: {
          object: 'checkout.session',
          id: sessionId,
          client_reference_id: orderId,
          status: 'complete',
          payment_status: 'paid',
          amount_total: 8500,
          currency: 'usd',
        },
      });
      expect(res.json()).toEqual({ received: true, duplicate: false });
      expect(seen()).toEqual([
        { what: 'order update', level: FULL },
        { what: 'event insert', level: FULL },
      ]);
      expect(store.handle.sqlite.pragma('synchronous', { simple: true })).toBe(NORMAL);
    });

    it('reconcile: a payment learned from Stripe after a missed webhook', async () => {
      const { sessionId } = await checkout();
      seen();
      fake.update(sessionId, { status: 'complete', payment_status: 'paid' });
      const result = await reconcilePendingOrders({
        db: store.handle.db,
        payments: new StripeGateway(stripe),
        clock: fixedClock,
        publicUrl: 'https://shop.example',
      });
      expect(result).toMatchObject({ updated: 1, failed: 0 });
      expect(seen()).toEqual([{ what: 'order update', level: FULL }]);
      expect(store.handle.sqlite.pragma('synchronous', { simple: true })).toBe(NORMAL);
    });
  },
);

describe.skipIf(testEngine === 'postgres')('demo payment mode', () => {
  let store: TestStore;
  afterEach(async () => store.cleanup());

  it('completing a test payment is a durable write too', async () => {
    store = await createTestStore();
    const seen = watchSyncLevel(store);
    await insertProducts(store.handle.db, [{ id: 'k1', price_minor: 8500 }]);
    const caller = store.caller();
    const { url } = await caller.checkout.createSession({
      lines: [{ productId: 'k1', size: 'M', quantity: 1 }],
    });
    seen();
    await caller.checkout.completeTestPayment({
      sessionId: decodeURIComponent(url.split('session_id=')[1] ?? ''),
      ...demoShopper,
    });
    expect(seen()).toEqual([{ what: 'order update', level: FULL }]);
    expect(store.handle.sqlite.pragma('synchronous', { simple: true })).toBe(NORMAL);
  });
});
