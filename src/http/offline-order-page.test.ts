import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertProducts } from '../test-support/fixtures.js';
import { buildTestApp, createTestStore, type TestStore, tickingClock } from '../test-support/test-store.js';

const SHELL = `<!doctype html><html lang="en"><head><title>Store</title></head><body><div id="root"></div></body></html>`;
/** A stand-in for the built server renderer: only where it was asked to render matters here. */
const RENDERER = `export async function renderPage(pathname) {
  return { html: '<main>rendered ' + pathname + '</main>', state: { mutations: [], queries: [] } };
}`;

/**
 * Cash on delivery and bank transfer (decision 0038): the order page exists from the order's placing, not
 * from its payment, and the confirmation link of the email is a page of the app.
 */
describe('the pages of an order paid at the door or by transfer', () => {
  let store: TestStore;
  let app: FastifyInstance;
  const clock = tickingClock('2026-11-28T09:00:00.000Z');
  beforeEach(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [{ id: 'k1', title: 'Lawn Kurta', price_minor: 8500 }]);
    const clientDir = path.join(store.dir, 'client');
    mkdirSync(clientDir, { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), SHELL);
    mkdirSync(path.join(store.dir, 'ssr'), { recursive: true });
    writeFileSync(path.join(store.dir, 'ssr', 'entry-server.js'), RENDERER);
    app = await buildTestApp(store, { clientDir, clock });
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  /** A pending (unpaid) order, as a card checkout leaves it before payment. */
  async function pendingOrder() {
    const { orderNumber } = await store
      .caller({ clock })
      .checkout.createSession({ lines: [{ productId: 'k1', size: 'M', quantity: 1 }] });
    return store.handle.db
      .selectFrom('orders')
      .select(['id', 'number', 'access_token'])
      .where('number', '=', orderNumber)
      .executeTakeFirstOrThrow();
  }

  it('answers the page of a pending cash-on-delivery or bank-transfer order 200, an unpaid card order 404', async () => {
    const card = await pendingOrder();
    const unpaid = await app.inject({ method: 'GET', url: `/order/${card.id}?token=${card.access_token}` });
    expect(unpaid.statusCode).toBe(404);
    expect(unpaid.body).toContain('<title>Order not found · ');

    for (const method of ['cash_on_delivery', 'bank_transfer'] as const) {
      const order = await pendingOrder();
      await store.handle.db
        .updateTable('orders')
        .set({ payment_method: method })
        .where('id', '=', order.id)
        .execute();
      const right = await app.inject({
        method: 'GET',
        url: `/order/${order.id}?token=${order.access_token}`,
      });
      expect(right.statusCode, method).toBe(200);
      expect(right.body).toContain(`<title>Order #${order.number} · `);
      expect(right.headers['cache-control']).toBe('no-store');
      expect(right.headers['referrer-policy']).toBe('no-referrer');
      const wrong = await app.inject({ method: 'GET', url: `/order/${order.id}?token=nope` });
      expect(wrong.statusCode, method).toBe(404);
      expect(wrong.body).not.toContain(`#${order.number}`);
    }
  });

  it('serves the confirmation link as the app (200), never rendered with anything of the order', async () => {
    const order = await pendingOrder();
    const res = await app.inject({ method: 'GET', url: `/order/${order.id}/confirm?token=secret-token` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    // The browser asks before it confirms (a mail scanner opening the link confirms nothing); the server's
    // page is the plain shell, so neither the token nor the order is in it.
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).not.toContain('secret-token');
    expect(res.body).not.toContain(`#${order.number}`);
    expect((await app.inject({ method: 'GET', url: `/order/${order.id}/confirm/x` })).statusCode).toBe(404);
  });
});
