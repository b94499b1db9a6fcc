import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoShopper, insertProducts } from '../../test-support/fixtures.js';
import { ownerSession as owner } from '../../test-support/orders.js';
import { createTestStore, type TestStore, tickingClock } from '../../test-support/test-store.js';
import { releaseExpiredReservations } from './reservations.js';
import { setStock } from './stock.repository.js';

/** Stock per size through checkout, on the engine under test: holds, sales, releases, and no overselling. */
describe('stock per size at checkout', () => {
  let store: TestStore;
  let clock = tickingClock();
  beforeEach(async () => {
    clock = tickingClock();
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [{ id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500 }]);
    await store.handle.db.transaction().execute((trx) => setStock(trx, 'k1', { M: 3, L: 0 }));
  });
  afterEach(async () => store.cleanup());

  const shop = () => store.caller({ clock });
  const count = async (size: string) =>
    store.handle.db
      .selectFrom('size_stock')
      .select(['on_hand', 'reserved'])
      .where('product_id', '=', 'k1')
      .where('size', '=', size)
      .executeTakeFirstOrThrow();
  const sessionOf = (url: string) => decodeURIComponent(url.split('session_id=')[1] ?? '');

  it('100 checkouts at once for a size with 3 left give exactly 3 orders that can pay, and stock never goes below 0', async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 100 }, () =>
        shop().checkout.createSession({ lines: [{ productId: 'k1', size: 'M', quantity: 1 }] }),
      ),
    );
    const won = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    expect(won).toHaveLength(3);
    for (const lost of attempts.filter((a) => a.status === 'rejected')) {
      expect((lost as PromiseRejectedResult).reason).toMatchObject({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/Mint Lawn Kurta.*sold out/),
      });
    }
    expect(await count('M')).toEqual({ on_hand: 3, reserved: 3 });
    const orders = await store.handle.db.selectFrom('orders').select('id').execute();
    expect(orders).toHaveLength(3);
    for (const w of won)
      await shop().checkout.completeTestPayment({ sessionId: sessionOf(w.url), ...demoShopper });
    expect(await count('M')).toEqual({ on_hand: 0, reserved: 0 });
    const flagged = await store.handle.db
      .selectFrom('orders')
      .select('stock_problem')
      .where('stock_problem', 'is not', null)
      .execute();
    expect(flagged).toEqual([]);
  });

  it('the quote flags a sold-out size and too many of a size; checkout refuses both with a clear message', async () => {
    const quote = await shop().checkout.quote({
      lines: [
        { productId: 'k1', size: 'L', quantity: 1 },
        { productId: 'k1', size: 'M', quantity: 4 },
        { productId: 'k1', size: 'S', quantity: 10 },
      ],
    });
    expect(quote.lines.map((l) => [l.size, l.problem, l.left])).toEqual([
      ['L', 'sold_out', 0],
      ['M', 'not_enough_stock', 3],
      ['S', null, null],
    ]);
    await expect(
      shop().checkout.createSession({ lines: [{ productId: 'k1', size: 'L', quantity: 1 }] }),
    ).rejects.toMatchObject({
      message: 'Mint Lawn Kurta: This size is sold out. Please pick another size or remove it.',
    });
    await expect(
      shop().checkout.createSession({ lines: [{ productId: 'k1', size: 'M', quantity: 4 }] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    // An untracked size is always available.
    await shop().checkout.createSession({ lines: [{ productId: 'k1', size: 'S', quantity: 10 }] });
    expect(await count('M')).toEqual({ on_hand: 3, reserved: 0 });
  });

  it('an ended checkout gives its units back; a late payment takes what is left, or flags the order for a refund', async () => {
    const first = await shop().checkout.createSession({
      lines: [{ productId: 'k1', size: 'M', quantity: 3 }],
    });
    expect(await count('M')).toEqual({ on_hand: 3, reserved: 3 });
    // Demo holds last 30 minutes; the checkout that comes after finds the units free again.
    clock.advance(31 * 60_000);
    const second = await shop().checkout.createSession({
      lines: [{ productId: 'k1', size: 'M', quantity: 2 }],
    });
    expect(await count('M')).toEqual({ on_hand: 3, reserved: 2 });
    await shop().checkout.completeTestPayment({ sessionId: sessionOf(second.url), ...demoShopper });
    expect(await count('M')).toEqual({ on_hand: 1, reserved: 0 });
    // The first shopper pays late, for 3 when 1 is left: the order is paid, flagged, and stock stays at 1.
    await shop().checkout.completeTestPayment({ sessionId: sessionOf(first.url), ...demoShopper });
    expect(await count('M')).toEqual({ on_hand: 1, reserved: 0 });
    const order = await store.handle.db
      .selectFrom('orders')
      .select(['id', 'status', 'stock_problem'])
      .where('number', '=', first.orderNumber)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe('paid');
    expect(order.stock_problem).toBe(
      'Paid for more than was in stock: Mint Lawn Kurta (M) × 3. Refund it, or restock.',
    );
    const detail = await store.caller({ clock, admin: owner }).admin.orders.byId({ id: order.id });
    expect(detail.stockProblem).toBe(order.stock_problem);
    expect(detail.timeline.map((t) => t.label)).toContain('Paid for more than was in stock');
    const list = await store.caller({ clock, admin: owner }).admin.orders.list({});
    expect(list.items.find((o) => o.id === order.id)?.stockProblem).toBe(true);
  });

  it('the background releases holds whose time ran out, once', async () => {
    await shop().checkout.createSession({ lines: [{ productId: 'k1', size: 'M', quantity: 2 }] });
    expect(await releaseExpiredReservations(store.handle.db, new Date(clock.now().getTime() + 60_000))).toBe(
      0,
    );
    const later = new Date(clock.now().getTime() + 31 * 60_000);
    expect(await releaseExpiredReservations(store.handle.db, later)).toBe(1);
    expect(await releaseExpiredReservations(store.handle.db, later)).toBe(0);
    expect(await count('M')).toEqual({ on_hand: 3, reserved: 0 });
  });

  it('"In stock only" follows the holds: the last M held leaves the filter at once, a lapsed hold brings it back', async () => {
    await insertProducts(store.handle.db, [{ id: 'k2', title: 'Gold Lawn Kurta', sizes: '["M"]' }]);
    await store.handle.db.transaction().execute((trx) => setStock(trx, 'k2', { M: 1 }));
    const none = { manufacturers: [], sizes: [], colors: [], tags: [] };
    const found = async (f: { sizes?: string[]; inStock: boolean }) =>
      (await shop().catalogue.search({ ...none, ...f })).items.map((c) => c.id).sort();
    const sizeCounts = async (inStock: boolean) =>
      Object.fromEntries(
        (await shop().catalogue.facets({ ...none, inStock })).size.map((o) => [o.value, o.count]),
      );

    // k1: L sold out, M 3, S and XL untracked. k2: only M, 1 left.
    expect(await found({ sizes: ['L'], inStock: false })).toEqual(['k1']);
    expect(await found({ sizes: ['L'], inStock: true })).toEqual([]);
    expect(await found({ sizes: ['M'], inStock: true })).toEqual(['k1', 'k2']);
    expect(await sizeCounts(true)).toEqual({ S: 1, M: 2, XL: 1 });

    await shop().checkout.createSession({ lines: [{ productId: 'k2', size: 'M', quantity: 1 }] });
    expect(await found({ inStock: true })).toEqual(['k1']);
    expect(await found({ inStock: false })).toEqual(['k1', 'k2']);
    expect(await sizeCounts(true)).toEqual({ S: 1, M: 1, XL: 1 });
    expect(await sizeCounts(false)).toEqual({ S: 1, M: 2, L: 1, XL: 1 });

    await releaseExpiredReservations(store.handle.db, new Date(clock.now().getTime() + 31 * 60_000));
    expect(await found({ sizes: ['M'], inStock: true })).toEqual(['k1', 'k2']);
    expect(await sizeCounts(true)).toEqual({ S: 1, M: 2, XL: 1 });
  });
});
