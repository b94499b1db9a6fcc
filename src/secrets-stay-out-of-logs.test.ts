import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { LogService } from './modules/logs/log-service.js';
import { demoShopper, insertProducts } from './test-support/fixtures.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  type TestStore,
  testEngine,
} from './test-support/test-store.js';

const SHELL =
  '<!doctype html><html lang="en"><head><title>Store</title></head><body><div id="root"></div></body></html>';
const OWNER = 'owner@shop.example';
const PASSWORD = 'correct horse battery';
const json = { 'content-type': 'application/json' };

/** Every way a secret could be written down: as it is, URL-encoded once or twice, and cut short. */
function formsOf(secret: string): string[] {
  const once = encodeURIComponent(secret);
  return [...new Set([secret, once, encodeURIComponent(once), secret.slice(0, 16), secret.slice(-16)])];
}

/**
 * A shopper's order token, checkout session id and an invitation token reach no log sink, however a
 * request carried them: the order page's address, tRPC's GET input (single and batched) and POST body, the
 * result pages, a request that fails (4xx and 5xx), an invitation link, a browser's error report and vitals.
 */
describe(`secrets stay out of every log (${testEngine})`, () => {
  let store: TestStore | undefined;
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await store?.cleanup();
    store = undefined;
  });

  it('after a demo purchase, the order page, an invitation and failures, no sink holds a secret', async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example', LOG_LEVEL: 'info' } });
    await insertProducts(store.handle.db, [{ id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500 }]);
    await createAdmin(store, OWNER, PASSWORD);
    const clientDir = path.join(store.dir, 'client');
    mkdirSync(clientDir, { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), SHELL);
    const output: string[] = [];
    const logs = new LogService({ db: store.handle.db, limits: store.config.logs });
    const shop = await buildTestApp(store, { clientDir, logLines: output, logService: logs });
    app = shop;
    // A failure that quotes its request's address, as a library's error message may.
    shop.get('/api/test-boom', async (req) => {
      throw new Error(`could not answer ${req.url}`);
    });

    const get = (url: string, headers: Record<string, string> = {}) =>
      shop.inject({ method: 'GET', url, headers });
    const post = (procedure: string, body: unknown, cookie?: string) =>
      shop.inject({
        method: 'POST',
        url: `/api/trpc/${procedure}`,
        headers: { ...json, ...(cookie ? { cookie } : {}) },
        payload: JSON.stringify(body),
      });
    const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));
    const data = <T>(res: { json(): unknown }) => (res.json() as { result: { data: T } }).result.data;

    // The purchase, as the browser makes it.
    const started = await post('checkout.createSession', {
      lines: [{ productId: 'k1', size: 'M', quantity: 1 }],
    });
    expect(started.statusCode).toBe(200);
    const paymentUrl = data<{ url: string }>(started).url;
    const sessionId = new URL(paymentUrl, 'https://shop.example').searchParams.get('session_id') ?? '';
    expect(sessionId).toMatch(/^demo_/);
    expect((await get(paymentUrl)).statusCode).toBe(200);
    expect((await get(`/api/trpc/checkout.order?input=${input({ sessionId })}`)).statusCode).toBe(200);
    expect((await post('checkout.completeTestPayment', { sessionId, ...demoShopper })).statusCode).toBe(200);
    expect((await get(`/checkout/success?session_id=${encodeURIComponent(sessionId)}`)).statusCode).toBe(200);
    expect((await get(`/success?session_id=${encodeURIComponent(sessionId)}`)).statusCode).toBe(200);
    const summary = await get(`/api/trpc/checkout.order?input=${input({ sessionId })}`);
    expect(summary.statusCode).toBe(200);
    const orderPage = data<{ orderPagePath: string }>(summary).orderPagePath;
    const orderUrl = new URL(orderPage, 'https://shop.example');
    const orderId = orderUrl.pathname.split('/')[2] ?? '';
    const token = orderUrl.searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThan(16);
    // A query by POST is refused, but its body carried the secret all the same.
    await post('checkout.order', { sessionId });

    // The order page and its data, single and batched, by GET and POST.
    expect((await get(orderPage)).statusCode).toBe(200);
    expect((await get(`/api/trpc/orderPage.view?input=${input({ id: orderId, token })}`)).statusCode).toBe(
      200,
    );
    const batch = await get(
      `/api/trpc/checkout.order,orderPage.view?batch=1&input=${input({ 0: { sessionId }, 1: { id: orderId, token } })}`,
    );
    expect(batch.statusCode).toBe(200);
    // As a browser may send it: only the quotes encoded.
    const loose = JSON.stringify({ id: orderId, token }).replaceAll('"', '%22');
    expect((await get(`/api/trpc/orderPage.view?input=${loose}`)).statusCode).toBe(200);
    await post('orderPage.view', { id: orderId, token });

    // Failures carrying the secrets: a wrong token, the right token for another order, a 5xx.
    const wrongToken = randomBytes(24).toString('base64url');
    expect((await get(`/order/${orderId}?token=${wrongToken}`)).statusCode).toBe(404);
    expect((await get(`/order/ord_nothere?token=${token}`)).statusCode).toBe(404);
    expect(
      (await get(`/api/trpc/orderPage.view?input=${input({ id: 'ord_nothere', token })}`)).statusCode,
    ).toBe(404);
    expect((await get(`/api/trpc/orderPage.view?input=${input({ id: orderId })}`)).statusCode).toBe(400);
    const boom = await get(`/api/test-boom?token=${token}&session_id=${encodeURIComponent(sessionId)}`);
    expect(boom.statusCode).toBe(500);
    expect((await get(`/no-such-page?token=${token}`)).statusCode).toBe(404);

    // An invitation, made by the owner and accepted through its link.
    const cookie = await loginCookie(shop, OWNER, PASSWORD);
    const invited = await post(
      'admin.team.invite',
      { email: 'new@shop.example', role: 'staff', send: true },
      cookie,
    );
    expect(invited.statusCode).toBe(200);
    const link = data<{ link: string }>(invited).link;
    const inviteToken = new URL(link).hash.slice(1);
    expect(inviteToken).toHaveLength(43);
    // The link keeps the token in its fragment; a hand-made one, or a client that sent it all, does not.
    await get(`/admin/invite#${inviteToken}`);
    await get(`/admin/invite?token=${inviteToken}`);
    await get(`/api/trpc/auth.openInvite?input=${input({ token: inviteToken })}`);
    expect((await post('auth.openInvite', { token: inviteToken })).statusCode).toBe(200);
    const accepted = await post('auth.acceptInvite', {
      token: inviteToken,
      password: 'a long new password 1',
    });
    expect(accepted.statusCode).toBe(200);
    await post('auth.openInvite', { token: inviteToken }); // spent: 404

    // What a browser reports from the order page: an error quoting its address, and its vitals.
    const report = await post('telemetry.reportError', {
      kind: 'error',
      message: `failed to load https://shop.example${orderPage}`,
      stack: `Error: failed\n    at https://shop.example${orderPage}:1:2`,
      route: orderPage,
    });
    expect(report.statusCode).toBe(200);
    const vitals = await shop.inject({
      method: 'POST',
      url: '/api/vitals',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ path: orderPage, metrics: [{ name: 'LCP', value: 1200 }] }),
    });
    expect(vitals.statusCode).toBe(204);

    // Demo payment mode prints the emails it cannot send: the order confirmation holds the order's link.
    const mail = await shop.mailWorker.runOnce();
    expect(mail.unsendable).toBeGreaterThan(0);

    await shop.close();
    app = undefined;
    await logs.flush();
    const db = store.handle.db;
    const sinks = {
      output: output.join(''),
      logs: JSON.stringify(await db.selectFrom('logs').selectAll().execute()),
      audit: JSON.stringify(await db.selectFrom('admin_audit').selectAll().execute()),
      vitals: JSON.stringify(await db.selectFrom('web_vitals').selectAll().execute()),
    };
    const secrets = { token, sessionId, inviteToken, wrongToken };
    const leaks = Object.entries(sinks).flatMap(([sink, text]) =>
      Object.entries(secrets).flatMap(([name, secret]) =>
        formsOf(secret)
          .filter((form) => text.includes(form))
          .map((form) => `${name} in ${sink} (as ${form})`),
      ),
    );
    expect(leaks).toEqual([]);

    // Still useful: the lines name the page, the order and the procedure, with the secret marked.
    const urls = output.map((line) => (JSON.parse(line) as { url?: string }).url).filter(Boolean);
    expect(urls).toContain(`/order/${orderId}?token=[redacted]`);
    expect(urls).toContain(`/checkout/success?session_id=[redacted]`);
    expect(urls).toContain(`/api/trpc/orderPage.view?input={"id":"${orderId}","token":"[redacted]"}`);
    expect(sinks.logs).toContain('could not answer /api/test-boom?token=[redacted]');
    expect(sinks.logs).toContain('new@shop.example');
    expect(sinks.audit).toContain('admin.team.invite');
    expect(sinks.logs).toContain(`View your order: https://shop.example/order/${orderId}?token=[redacted]`);
  });
});
