import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { demoShopper, insertProducts } from '../../test-support/fixtures.js';
import { startTestSmtp, type TestSmtp } from '../../test-support/smtp.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  type TestStore,
  tickingClock,
} from '../../test-support/test-store.js';
import type { MailWorker } from '../email/mail-worker.js';

const ORIGIN = 'https://shop.example';

/**
 * The whole after-sale mail path over HTTP, with the app's own worker started as main.ts starts it and a
 * real SMTP server: paying on the demo page, shipping and refunding each put an email in the shopper's
 * inbox within moments (the nudge after the commit, not the 30 s poll), and the confirmation's link opens
 * the order page.
 */
describe('order emails arrive', () => {
  let store: TestStore;
  let smtp: TestSmtp;
  let app: FastifyInstance & { mailWorker: MailWorker };
  beforeEach(async () => {
    smtp = await startTestSmtp();
    store = await createTestStore({ env: { PUBLIC_URL: ORIGIN } });
    await insertProducts(store.handle.db, [{ id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500 }]);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: store.dir,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: ORIGIN,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'orders@shop.example',
    });
    app = (await buildTestApp(store, { config, clock: tickingClock() })) as typeof app;
    app.mailWorker.start();
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
    await smtp.close();
  });

  const call = (path: string, body: unknown, cookie?: string) =>
    app.inject({
      method: 'POST',
      url: `/api/trpc/${path}`,
      headers: { 'content-type': 'application/json', origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(body),
    });
  /** Well under the worker's 30 s poll: only the nudge after the commit gets a message here in time. */
  async function arrived(count: number) {
    const until = Date.now() + 5_000;
    while (smtp.received.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect(smtp.received).toHaveLength(count);
    return smtp.received[count - 1];
  }

  it('confirms the payment, tells of the shipment and of each refund', async () => {
    const started = await call('checkout.createSession', {
      lines: [{ productId: 'k1', size: 'M', quantity: 2 }],
    });
    const sessionId = new URL(started.json().result.data.url, ORIGIN).searchParams.get('session_id');
    expect((await call('checkout.completeTestPayment', { sessionId, ...demoShopper })).statusCode).toBe(200);

    const confirmation = await arrived(1);
    expect(smtp.recipients[0]).toEqual(['ayesha@example.com']);
    expect(confirmation?.subject).toMatch(/^Order #\d+ confirmed/);
    const link = /https:\/\/shop\.example\/order\/(ord_[\w-]+)\?token=([\w-]+)/.exec(
      confirmation?.text ?? '',
    );
    expect(link, 'the order page link in the text part').not.toBeNull();
    expect(confirmation?.html).toContain(link?.[0]);
    const page = await app.inject({
      method: 'GET',
      url: `/api/trpc/orderPage.view?input=${encodeURIComponent(JSON.stringify({ id: link?.[1], token: link?.[2] }))}`,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json().result.data.stage).toBe('Paid');

    await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    const cookie = await loginCookie(app, 'owner@shop.example', 'correct horse battery', { origin: ORIGIN });
    const id = link?.[1];
    expect(
      (await call('admin.orders.ship', { id, carrier: 'DHL', trackingNumber: 'JD0146' }, cookie)).statusCode,
    ).toBe(200);
    const shipped = await arrived(2);
    expect(shipped?.subject).toMatch(/on its way/);
    expect(shipped?.text).toContain('JD0146');
    expect(shipped?.text).toContain('https://www.dhl.com/en/express/tracking.html?AWB=JD0146');

    expect(
      (await call('admin.orders.refund', { id, amountMinor: 8500, reason: 'Too small' }, cookie)).statusCode,
    ).toBe(200);
    const refund = await arrived(3);
    expect(refund?.subject).toMatch(/^Refund for order #\d+/);
    expect(refund?.text).toMatch(/85\.00/);

    // The server has the message; the worker records it as sent right after.
    await app.mailWorker.idle();
    const outbox = await store.handle.db
      .selectFrom('email_outbox')
      .select(['kind', 'status'])
      .orderBy('created_at')
      .execute();
    expect(outbox).toEqual([
      { kind: 'order_confirmation', status: 'sent' },
      { kind: 'order_shipped', status: 'sent' },
      { kind: 'order_refund', status: 'sent' },
    ]);
  });
});
