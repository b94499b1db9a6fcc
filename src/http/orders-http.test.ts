import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoShopper, insertProducts } from '../test-support/fixtures.js';
import { insertDeliveredOrder, insertReturn } from '../test-support/returns.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  SESSION_FACTS,
  type TestStore,
  tickingClock,
} from '../test-support/test-store.js';

// With a page's worth of text: a page under 1 kB is never worth compressing.
const SHELL = `<!doctype html><html lang="en"><head><title>Store</title></head><body><div id="root"></div><p hidden>${'The store around the page. '.repeat(80)}</p></body></html>`;

/**
 * A stand-in for the built server renderer (dist/ssr/entry-server.js): asks for the order of its address as
 * the order page does (not at all without a token) and shows what it got, and tries another order with the
 * same token, which the server must not answer.
 */
const RENDERER = `export async function renderPage(pathname, search, query) {
  const id = decodeURIComponent(pathname.split('/')[2] ?? '');
  const token = new URLSearchParams(search).get('token') ?? '';
  let shown = 'Order not found';
  if (token) {
    try {
      const order = await query('orderPage.view', { id, token });
      shown = order ? 'Order #' + order.number + ': ' + order.lines.map((l) => l.size).join(', ') : 'unanswered';
    } catch {}
  }
  let other = 'refused';
  if (token) {
    try {
      if ((await query('orderPage.view', { id: id + 'x', token })) !== undefined) other = 'answered';
    } catch {
      other = 'asked';
    }
  }
  return { html: '<main>' + shown + (other === 'refused' ? '' : ' (another order ' + other + ')') + '</main>', state: { mutations: [], queries: [] } };
}`;

/** The CSV's columns before returns (decision 0039) added theirs after them: these keep their places. */
const HEADER_BEFORE_RETURNS =
  'order_number,order_id,paid_at,status,fulfilment,customer_email,customer_name,ship_to_country,currency,product_id,title,size,quantity,unit_price,line_total,refunded_quantity,order_subtotal,order_total,order_refunded,colour,regular_unit_price,sale,discount_code,line_discount,payment_method,payment_step';

/** The two after-sale HTTP routes: the shopper's order page and the accountant's CSV (admin only). */
describe('order page and accounting export over HTTP', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let clock = tickingClock();
  beforeEach(async () => {
    clock = tickingClock('2026-11-10T09:00:00.000Z');
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [
      { id: 'k1', title: '=HYPERLINK("http://evil.example")', price_minor: 8500 },
      { id: 'k2', title: 'Silk "Noor" Dupatta, long', price_minor: 3005 },
    ]);
    const clientDir = path.join(store.dir, 'client');
    mkdirSync(clientDir, { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), SHELL);
    // Beside the client, where a build puts the server bundle (dist/ssr).
    mkdirSync(path.join(store.dir, 'ssr'), { recursive: true });
    writeFileSync(path.join(store.dir, 'ssr', 'entry-server.js'), RENDERER);
    app = await buildTestApp(store, { clientDir, clock });
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  async function paidOrder(lines: Array<{ productId: string; size: string; quantity: number }>) {
    const shop = store.caller({ clock });
    const { url, orderNumber } = await shop.checkout.createSession({ lines });
    const sessionId = decodeURIComponent(url.split('session_id=')[1] ?? '');
    await shop.checkout.completeTestPayment({ sessionId, ...demoShopper, name: '@Ayesha' });
    return store.handle.db
      .selectFrom('orders')
      .select(['id', 'number', 'access_token'])
      .where('number', '=', orderNumber)
      .executeTakeFirstOrThrow();
  }

  it('answers the order page 200 only with its token, 404 otherwise, never cached, indexed or referred', async () => {
    const order = await paidOrder([{ productId: 'k1', size: 'M', quantity: 1 }]);
    const page = (url: string) => app.inject({ method: 'GET', url });
    const right = await page(`/order/${order.id}?token=${order.access_token}`);
    expect(right.statusCode).toBe(200);
    expect(right.headers['content-type']).toMatch(/text\/html/);
    // Rendered on the server with the order of its own address, and that one only: it reads without JavaScript.
    expect(right.body).toContain(`<div id="root"><main>Order #${order.number}: M</main></div>`);
    expect(right.body).toContain(`<title>Order #${order.number} · `);
    expect(right.body).toContain('<meta name="robots" content="noindex">');
    const notFound = await page(`/order/${order.id}?token=nope`);
    expect(notFound.body).toContain('<div id="root"><main>Order not found</main></div>');
    expect(notFound.body).toContain('<title>Order not found · ');
    expect(notFound.body).not.toContain(`#${order.number}`);
    for (const wrong of [
      `/order/${order.id}`,
      `/order/${order.id}?token=`,
      `/order/${order.id}?token=${order.id}`,
      `/order/${order.id}?token=${String(order.access_token).slice(1)}`,
      `/order/ord_nothere?token=${order.access_token}`,
    ]) {
      const res = await page(wrong);
      expect(res.statusCode, wrong).toBe(404);
      // One page for every wrong address: the answer tells nothing but "not found".
      expect(res.body, wrong).toBe(notFound.body);
    }
    for (const res of [right, notFound]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    }
  });

  it('sends the order page compressed when the browser accepts it, still never cached', async () => {
    const order = await paidOrder([{ productId: 'k1', size: 'M', quantity: 1 }]);
    const get = (url: string, encoding?: string) =>
      app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });
    for (const url of [`/order/${order.id}?token=${order.access_token}`, `/order/${order.id}?token=nope`]) {
      const plain = await get(url);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.body).toContain('</html>');
      const br = await get(url, 'gzip, deflate, br, zstd');
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      const gzip = await get(url, 'gzip');
      expect(gzip.headers['content-encoding'], url).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
      // Refused by weight: sent as it is.
      expect((await get(url, 'br;q=0, gzip;q=0')).headers['content-encoding']).toBeUndefined();
      for (const res of [plain, br, gzip]) {
        expect(res.statusCode).toBe(plain.statusCode);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.headers['referrer-policy']).toBe('no-referrer');
      }
    }
  });

  it('exports the orders paid in a date range as CSV, one row per line, to admins only', async () => {
    const first = await paidOrder([
      { productId: 'k1', size: 'M', quantity: 2 },
      { productId: 'k2', size: 'S', quantity: 1 },
    ]);
    clock.advance(3 * 86_400_000);
    await paidOrder([{ productId: 'k2', size: 'L', quantity: 1 }]);
    const detail = await store.caller({
      clock,
      admin: {
        id: 1,
        email: 'owner@shop.example',
        loginAt: '2026-11-10T09:00:00.000Z',
        role: 'owner' as const,
        ...SESSION_FACTS,
        confirmedAt: clock.now().toISOString(),
      },
    }).admin.orders;
    await detail.refund({ id: first.id, amountMinor: 1005 });

    const url = '/api/admin/orders/export.csv?from=2026-11-10&to=2026-11-10';
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    const cookie = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
    const res = await app.inject({ method: 'GET', url, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="orders-2026-11-10-to-2026-11-10.csv"',
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const rows = res.body.trimEnd().split('\r\n');
    expect(rows[0]).toBe(
      `${HEADER_BEFORE_RETURNS},returned_quantity,exchange_to,exchange_tracking,exchange_difference`,
    );
    expect(rows).toHaveLength(3);
    // A title that would be a formula is text; quotes and commas are quoted; money is exact decimal text.
    expect(rows[1]).toContain(`${first.number},${first.id},`);
    expect(rows[1]).toContain(
      `,ayesha@example.com,'@Ayesha,PK,USD,k1,"'=HYPERLINK(""http://evil.example"")",M,2,85.00,170.00,0,200.05,200.05,10.05`,
    );
    expect(rows[2]).toContain(',k2,"Silk ""Noor"" Dupatta, long",S,1,30.05,30.05,0,200.05,200.05,10.05');

    const all = await app.inject({
      method: 'GET',
      url: '/api/admin/orders/export.csv?from=2026-11-01&to=2026-11-30',
      headers: { cookie },
    });
    expect(all.body.trimEnd().split('\r\n')).toHaveLength(4);
    for (const bad of [
      'from=2026-11-30&to=2026-11-01',
      'from=2026-13-01&to=2026-13-02',
      'from=yesterday&to=today',
      '',
    ]) {
      const refused = await app.inject({
        method: 'GET',
        url: `/api/admin/orders/export.csv?${bad}`,
        headers: { cookie },
      });
      expect(refused.statusCode, bad).toBe(400);
    }
  });
  it('adds the returns last: units returned, what a line is exchanged for, its tracking and difference', async () => {
    const db = store.handle.db;
    await db
      .updateTable('products')
      .set({
        colour_options: JSON.stringify([
          { name: 'Rose', hex: null, skuSuffix: null, priceMinor: null, images: [], sizeDetail: null },
          { name: 'Teal', hex: null, skuSuffix: null, priceMinor: null, images: [], sizeDetail: null },
        ]),
      })
      .where('id', '=', 'k1')
      .execute();
    // Hand-built: paid and delivered on 22 November, four lines.
    const [rose, dupatta, kept, cheaper] = await insertDeliveredOrder(db, {
      id: 'ord_ret',
      number: 9001,
      lines: [
        { productId: 'k1', size: 'M', quantity: 3, unitPriceMinor: 5000, colour: 'Rose' },
        { productId: 'k2', size: 'S', quantity: 2, unitPriceMinor: 3005 },
        { productId: 'k2', size: 'M', quantity: 1, unitPriceMinor: 3005 },
        { productId: 'k1', size: 'L', quantity: 1, unitPriceMinor: 5000, colour: 'Rose' },
      ],
    });
    const returnOf = async (
      id: string,
      seed: Omit<Parameters<typeof insertReturn>[1], 'id' | 'orderId'>,
      fields: { carrier?: string; tracking?: string; created: string; lineDifference?: number },
    ) => {
      await insertReturn(db, { id, orderId: 'ord_ret', ...seed });
      await db
        .updateTable('returns')
        .set({
          exchange_carrier: fields.carrier ?? null,
          exchange_tracking: fields.tracking ?? null,
          created_at: fields.created,
        })
        .where('id', '=', id)
        .execute();
      if (fields.lineDifference !== undefined)
        await db
          .updateTable('return_lines')
          .set({ difference_minor: fields.lineDifference })
          .where('return_id', '=', id)
          .execute();
    };
    // Line 1: one unit exchanged for Teal / L and shipped (+5.00 to pay), one for Rose / L asked for since
    // (3.00 back), one kept. Line 2: both units refunded. Line 3: an exchange declined, so nothing counts.
    // Line 4: exchanged for a cheaper colour, 12.50 back.
    await returnOf(
      'ret_a',
      {
        status: 'closed',
        resolution: 'exchange',
        lines: [{ lineId: rose ?? 0, quantity: 1, exchangeColour: 'teal', exchangeSize: 'L' }],
      },
      { carrier: 'TCS', tracking: '123456', created: '2026-11-23T09:00:00.000Z', lineDifference: 500 },
    );
    await returnOf(
      'ret_b',
      {
        status: 'requested',
        resolution: 'exchange',
        lines: [{ lineId: rose ?? 0, quantity: 1, exchangeColour: 'rose', exchangeSize: 'L' }],
      },
      { created: '2026-11-24T09:00:00.000Z', lineDifference: -300 },
    );
    await returnOf(
      'ret_c',
      { status: 'closed', resolution: 'refund', lines: [{ lineId: dupatta ?? 0, quantity: 2 }] },
      { created: '2026-11-23T10:00:00.000Z' },
    );
    await returnOf(
      'ret_d',
      {
        status: 'declined',
        resolution: 'exchange',
        lines: [{ lineId: kept ?? 0, quantity: 1, exchangeSize: 'L' }],
      },
      { created: '2026-11-23T11:00:00.000Z', lineDifference: 700 },
    );
    await returnOf(
      'ret_e',
      {
        status: 'received',
        resolution: 'exchange',
        lines: [{ lineId: cheaper ?? 0, quantity: 1, exchangeColour: 'teal', exchangeSize: 'XL' }],
      },
      { created: '2026-11-23T12:00:00.000Z', lineDifference: -1250 },
    );

    await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    const cookie = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
    const res = await app.inject({
      method: 'GET',
      url: '/api/admin/orders/export.csv?from=2026-11-22&to=2026-11-22',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    const rows = res.body.trimEnd().split('\r\n');
    const before = HEADER_BEFORE_RETURNS.split(',').length;
    expect(rows[0]?.split(',').slice(0, before).join(',')).toBe(HEADER_BEFORE_RETURNS);
    const cells = rows.slice(1).map((row) => row.split(','));
    // The columns before the returns' read as they did, in their places.
    expect(cells.map((c) => c.slice(0, before))).toEqual(
      [
        ['k1', 'M', '3', '50.00', '150.00', 'Rose'],
        ['k2', 'S', '2', '30.05', '60.10', ''],
        ['k2', 'M', '1', '30.05', '30.05', ''],
        ['k1', 'L', '1', '50.00', '50.00', 'Rose'],
      ].map(([product, size, quantity, unit, total, colour]) => [
        '9001',
        'ord_ret',
        '2026-11-22T09:00:00.000Z',
        'paid',
        'delivered',
        'ayesha@example.com',
        'Ayesha Khan',
        '',
        'USD',
        product,
        `Lawn Kurta ${product}`,
        size,
        quantity,
        unit,
        total,
        '0',
        '290.15',
        '290.15',
        '0.00',
        colour,
        '',
        '',
        '',
        '0.00',
        'card',
        'delivered',
      ]),
    );
    expect(cells.map((c) => c.slice(before))).toEqual([
      ['2', 'Teal / L ×1; Rose / L ×1', 'TCS 123456', '2.00'],
      ['2', '', '', ''],
      ['0', '', '', ''],
      // A negative amount is a number, not text: no apostrophe before its minus.
      ['1', 'Teal / XL ×1', '', '-12.50'],
    ]);
  });
});
