import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertOfflineShop, lahoreShopper, twoKurtas } from '../test-support/offline-orders.js';
import { buildTestApp, createTestStore, type TestStore, tickingClock } from '../test-support/test-store.js';

const SHELL = `<!doctype html><html lang="en"><head><title>Store</title></head><body><div id="root"></div></body></html>`;

/** The order page of an order paid at the door is there from its placing, and so is its confirmation page. */
describe('the order page of a cash-on-delivery order over HTTP (decision 0038)', () => {
  let store: TestStore;
  let app: FastifyInstance;
  const clock = tickingClock('2026-11-10T09:00:00.000Z');
  beforeEach(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertOfflineShop(store.handle.db);
    const clientDir = path.join(store.dir, 'client');
    mkdirSync(clientDir, { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), SHELL);
    app = await buildTestApp(store, { clientDir, clock });
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  it('answers the pending order with its link and the confirmation page with either token, privately', async () => {
    const shop = store.caller({ clock });
    const placed = await shop.checkout.placeOrder({
      lines: twoKurtas,
      method: 'cash_on_delivery',
      customer: lahoreShopper,
    });
    const page = await app.inject({ url: placed.orderPath });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain(`Order #${placed.number}`);
    const mail = await store.handle.db
      .selectFrom('email_outbox')
      .select('text_body')
      .where('order_id', '=', placed.orderId)
      .executeTakeFirstOrThrow();
    const link = mail.text_body.match(
      /https:\/\/shop\.example(\/order\/[^/]+\/confirm\?token=[A-Za-z0-9_-]+)/,
    )?.[1];
    expect(link).toBeDefined();
    const confirm = await app.inject({ url: link ?? '' });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.headers['referrer-policy']).toBe('no-referrer');
    expect(confirm.headers['x-robots-tag']).toBe('noindex, nofollow');
    // Opening the link confirms nothing: the page's button does (mail scanners open links).
    const order = await store.handle.db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', placed.orderId)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe('pending');
    const token = placed.orderPath.split('token=')[1];
    expect((await app.inject({ url: `/order/${placed.orderId}/confirm?token=${token}` })).statusCode).toBe(
      200,
    );
    expect((await app.inject({ url: `/order/${placed.orderId}/confirm?token=wrong` })).statusCode).toBe(404);
    expect((await app.inject({ url: `/order/${placed.orderId}?token=wrong` })).statusCode).toBe(404);
  });

  it('still has no page for an unpaid card checkout', async () => {
    const { url } = await store.caller({ clock }).checkout.createSession({ lines: twoKurtas });
    const sessionId = decodeURIComponent(url.split('session_id=')[1] ?? '');
    const order = await store.handle.db
      .selectFrom('orders')
      .select(['id', 'access_token'])
      .where('stripe_session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    const res = await app.inject({ url: `/order/${order.id}?token=${order.access_token}` });
    expect(res.statusCode).toBe(404);
  });
});
