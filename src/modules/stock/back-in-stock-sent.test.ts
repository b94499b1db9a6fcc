import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
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
import { setStock } from './stock.repository.js';

const ORIGIN = 'https://shop.example';
const OWNER = { email: 'owner@shop.example', password: 'correct horse battery' };

const fields = {
  title: 'Mint Lawn Kurta',
  description: 'Breezy lawn',
  sku: 'MLK-1',
  price: '85.00',
  currency: 'usd',
  sizes: ['S', 'M', 'L'],
  tags: [],
  colors: [],
};

/**
 * "Email me when it is back" over HTTP, with the app's mail worker started as main.ts starts it and a real
 * SMTP server, and no background round at all (main.ts starts that; this app has none): when the owner
 * makes a sold-out size available, by the product form or by publishing a catalogue version, the waiting
 * shopper's email arrives within moments. Only the nudge after the commit can get it there in time.
 */
describe(`back-in-stock emails go when the size is back (${process.env.TEST_DATABASE ?? 'sqlite'})`, () => {
  let store: TestStore;
  let smtp: TestSmtp;
  let app: FastifyInstance & { mailWorker: MailWorker };
  let cookie: string;
  beforeEach(async () => {
    smtp = await startTestSmtp();
    store = await createTestStore({ env: { PUBLIC_URL: ORIGIN } });
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
    await createAdmin(store, OWNER.email, OWNER.password);
    cookie = await loginCookie(app, OWNER.email, OWNER.password, { origin: ORIGIN });
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
    await smtp.close();
  });

  async function call(path: string, body: unknown, withCookie = true) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/trpc/${path}`,
      headers: {
        'content-type': 'application/json',
        origin: ORIGIN,
        ...(withCookie ? { cookie } : {}),
      },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return res.json().result.data;
  }
  async function query(path: string, input: unknown) {
    const res = await app.inject({
      method: 'GET',
      url: `/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
      headers: { cookie },
    });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return res.json().result.data;
  }
  /**
   * Moments, not the background round's 10 minutes (which this app does not even run: without the nudge
   * the email is never queued). The bound is generous for a loaded machine, not the time it takes.
   */
  async function arrived(count: number) {
    const until = Date.now() + 10_000;
    while (smtp.received.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect(smtp.received).toHaveLength(count);
    return smtp.received[count - 1];
  }
  async function createProduct(stock: Record<string, number>): Promise<string> {
    const { id } = await query('admin.products.newId', undefined);
    await call('admin.products.create', { id, fields: { ...fields, stock } });
    return id;
  }
  const askWhenBack = (productId: string, email: string) =>
    call('catalogue.notifyWhenBack', { productId, size: 'M', email }, false);

  it('sends it as soon as the owner raises the stock in the product form', async () => {
    const id = await createProduct({ S: 2, M: 0 });
    await askWhenBack(id, 'ayesha@example.com');
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.received).toHaveLength(0); // still sold out: nothing to tell

    const product = await query('admin.products.byId', { id });
    await call('admin.products.update', {
      id,
      expectedUpdatedAt: product.updatedAt,
      fields: { ...fields, stock: { S: 2, M: 3 } },
    });
    const email = await arrived(1);
    expect(smtp.recipients[0]).toEqual(['ayesha@example.com']);
    expect(email?.subject).toBe('Mint Lawn Kurta in M is back — My Store');
    expect(email?.text).toContain(`${ORIGIN}/product/${id}`);

    await app.mailWorker.idle();
    const outbox = await store.handle.db.selectFrom('email_outbox').select(['kind', 'status']).execute();
    expect(outbox).toEqual([{ kind: 'back_in_stock', status: 'sent' }]);
  });

  it('sends it as soon as the owner publishes a catalogue version that has the size', async () => {
    const id = await createProduct({ M: 4 });
    const version = await call('admin.catalog.export', { label: 'With M', tags: [] });
    // Sold out since the version was saved; a shopper waits for it.
    await store.handle.db.transaction().execute((trx) => setStock(trx, id, { M: 0 }));
    await askWhenBack(id, 'bilal@example.com');

    await call('admin.catalog.setActive', { id: version.id });
    await arrived(1);
    expect(smtp.recipients[0]).toEqual(['bilal@example.com']);
  });

  it('sends it as soon as the owner imports a file (overwrite) that has the size', async () => {
    const id = await createProduct({ M: 2 });
    const version = await call('admin.catalog.export', { label: 'With M', tags: [] });
    const yaml = await app.inject({
      method: 'GET',
      url: `/api/admin/catalog/versions/${version.id}/download`,
      headers: { cookie },
    });
    expect(yaml.statusCode).toBe(200);
    await store.handle.db.transaction().execute((trx) => setStock(trx, id, { M: 0 }));
    await askWhenBack(id, 'sana@example.com');

    const form = new FormData();
    form.append('mode', 'overwrite');
    form.append('file', new Blob([yaml.body], { type: 'application/yaml' }), 'catalog.yaml');
    const body = new Response(form);
    const imported = await app.inject({
      method: 'POST',
      url: '/api/admin/catalog/import',
      headers: { 'content-type': body.headers.get('content-type') ?? '', origin: ORIGIN, cookie },
      payload: Buffer.from(await body.arrayBuffer()),
    });
    expect(imported.statusCode, imported.body).toBe(200);
    await arrived(1);
    expect(smtp.recipients[0]).toEqual(['sana@example.com']);
  });
});
