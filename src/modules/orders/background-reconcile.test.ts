import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { takeLease } from '../../db/job-lease.js';
import { RECONCILE_AFTER_MS, runMaintenance } from '../../ops/maintenance.js';
import { FakeStripe } from '../../test-support/fake-stripe.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { FAKE_STRIPE_KEY, fakeStripeEnv } from '../../test-support/stripe-webhooks.js';
import { buildTestApp, createTestStore, type TestStore } from '../../test-support/test-store.js';
import { LogService } from '../logs/log-service.js';
import { createStripeClient, StripeGateway } from '../payments/stripe-gateway.js';

const WEBHOOK_SECRET = 'whsec_backgroundtest12';

/**
 * A paid checkout whose webhook never arrived (the store was down, the secret was wrong) is found by the
 * background housekeeping: it asks Stripe about pending orders once their checkout has had its time, on
 * the one process holding the housekeeping lease.
 */
describe('orders reconciled in the background', () => {
  let fake: FakeStripe;
  let store: TestStore;
  let app: FastifyInstance;
  let payments: StripeGateway;
  beforeAll(async () => {
    fake = await new FakeStripe().start();
  });
  afterAll(async () => fake.stop());
  beforeEach(async () => {
    store = await createTestStore({
      env: fakeStripeEnv(fake, WEBHOOK_SECRET),
    });
    await insertProducts(store.handle.db, [{ id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500 }]);
    const stripe = createStripeClient({ secretKey: FAKE_STRIPE_KEY, apiUrl: fake.url, timeoutMs: 800 });
    payments = new StripeGateway(stripe, WEBHOOK_SECRET);
    app = await buildTestApp(store, { payments });
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  it('pays an order whose webhook was missed once its checkout has had its time, on the lease holder only', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/trpc/checkout.createSession',
      headers: { 'content-type': 'application/json', origin: 'https://shop.example' },
      payload: JSON.stringify({ lines: [{ productId: 'k1', size: 'M', quantity: 1 }] }),
    });
    expect(res.statusCode).toBe(200);
    const order = await store.handle.db
      .selectFrom('orders')
      .select(['id', 'stripe_session_id', 'created_at'])
      .executeTakeFirstOrThrow();
    fake.update(order.stripe_session_id ?? '', { status: 'complete', payment_status: 'paid' });
    const status = async () =>
      (await store.handle.db.selectFrom('orders').select('status').executeTakeFirstOrThrow()).status;

    const created = new Date(order.created_at).getTime();
    const at = (ms: number) => ({
      db: store.handle.db,
      clock: { now: () => new Date(created + ms) },
      logs: new LogService({ db: store.handle.db, limits: store.config.logs }),
      log: Fastify({ logger: false }).log,
      payments,
      publicUrl: 'https://shop.example',
      auditRetentionDays: store.config.audit.retentionDays,
    });
    // Still within its checkout: left to the webhook.
    expect(await runMaintenance(at(60_000), 'process A')).toBe(true);
    expect(await status()).toBe('pending');

    // Past the checkout's time, and past the lease process A took above.
    const later = at(RECONCILE_AFTER_MS + 30 * 60_000);
    // Another process holds the housekeeping: this one does not ask.
    const now = later.clock.now();
    expect(
      await takeLease(store.handle.db, { name: 'maintenance', holder: 'process B', ttlMs: 60_000, now }),
    ).toBe(true);
    expect(await runMaintenance(later, 'process A')).toBe(false);
    expect(await status()).toBe('pending');
    expect(await runMaintenance(later, 'process B')).toBe(true);
    expect(await status()).toBe('paid');
  });
});
