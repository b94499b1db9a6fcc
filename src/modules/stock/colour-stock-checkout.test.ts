import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoShopper, insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore, tickingClock } from '../../test-support/test-store.js';
import { releaseExpiredReservations } from './reservations.js';
import { setStock } from './stock.repository.js';

/**
 * Stock per colour × size through checkout, on the engine under test (decision 0036): a colour with a count
 * of its own is sold from it alone, a colour without one from the all-colours pool (''), and every hold goes
 * back to, or is sold from, the pool it was taken from.
 */
describe('stock per colour and size at checkout', () => {
  let store: TestStore;
  let clock = tickingClock();
  beforeEach(async () => {
    clock = tickingClock();
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    // Teal and Maroon count their own M; Mint has no count of its own and draws from all colours' M.
    await insertProducts(store.handle.db, [
      { id: 'k1', title: 'Lawn Kurta', price_minor: 8500, colors: '["Teal","Maroon","Mint","Sage"]' },
    ]);
    await store.handle.db
      .transaction()
      .execute((trx) => setStock(trx, 'k1', { M: 5 }, { Teal: { M: 3 }, Maroon: { M: 1 } }));
  });
  afterEach(async () => store.cleanup());

  const shop = () => store.caller({ clock });
  const count = async (colour: string, size = 'M') =>
    store.handle.db
      .selectFrom('size_stock')
      .select(['on_hand', 'reserved'])
      .where('product_id', '=', 'k1')
      .where('colour', '=', colour)
      .where('size', '=', size)
      .executeTakeFirstOrThrow();
  const sessionOf = (url: string) => decodeURIComponent(url.split('session_id=')[1] ?? '');
  const buy = (colour: string, quantity = 1) =>
    shop().checkout.createSession({ lines: [{ productId: 'k1', colour, size: 'M', quantity }] });

  it('100 checkouts at once for Teal M with 3 left give exactly 3 orders; Maroon M and the shared pool stay untouched', async () => {
    const attempts = await Promise.allSettled(Array.from({ length: 100 }, () => buy('Teal')));
    const won = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    expect(won).toHaveLength(3);
    for (const lost of attempts.filter((a) => a.status === 'rejected')) {
      expect((lost as PromiseRejectedResult).reason).toMatchObject({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/Lawn Kurta.*sold out/),
      });
    }
    expect(await count('teal')).toEqual({ on_hand: 3, reserved: 3 });
    expect(await count('maroon')).toEqual({ on_hand: 1, reserved: 0 });
    expect(await count('')).toEqual({ on_hand: 5, reserved: 0 });
    const orders = await store.handle.db.selectFrom('order_lines').select(['colour', 'size']).execute();
    expect(orders).toEqual(Array.from({ length: 3 }, () => ({ colour: 'Teal', size: 'M' })));
    for (const w of won)
      await shop().checkout.completeTestPayment({ sessionId: sessionOf(w.url), ...demoShopper });
    expect(await count('teal')).toEqual({ on_hand: 0, reserved: 0 });

    // Teal M is gone; Maroon M (its own last one) can still be quoted and bought.
    const quote = await shop().checkout.quote({
      lines: [
        { productId: 'k1', colour: 'Teal', size: 'M', quantity: 1 },
        { productId: 'k1', colour: 'Maroon', size: 'M', quantity: 1 },
      ],
    });
    expect(quote.lines.map((l) => [l.colour, l.problem, l.left])).toEqual([
      ['Teal', 'sold_out', 0],
      ['Maroon', null, 1],
    ]);
    await expect(buy('teal')).rejects.toMatchObject({
      message: 'Lawn Kurta: This size is sold out. Please pick another size or remove it.',
    });
    await buy('maroon');
    expect(await count('maroon')).toEqual({ on_hand: 1, reserved: 1 });
    expect(await count('')).toEqual({ on_hand: 5, reserved: 0 });
    const flagged = await store.handle.db
      .selectFrom('orders')
      .select('stock_problem')
      .where('stock_problem', 'is not', null)
      .execute();
    expect(flagged).toEqual([]);
  });

  it('100 checkouts at once for Mint M and Sage M, both drawing from all colours’ M with 3 left, give exactly 3 orders', async () => {
    await store.handle.db
      .transaction()
      .execute((trx) => setStock(trx, 'k1', { M: 3 }, { Teal: { M: 3 }, Maroon: { M: 1 } }));
    const attempts = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => buy(i % 2 === 0 ? 'Mint' : 'sage')),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(3);
    expect(await count('')).toEqual({ on_hand: 3, reserved: 3 });
    expect(await count('teal')).toEqual({ on_hand: 3, reserved: 0 });
    const holds = await store.handle.db
      .selectFrom('stock_reservations')
      .select(['colour', 'quantity'])
      .execute();
    expect(holds).toEqual(Array.from({ length: 3 }, () => ({ colour: '', quantity: 1 })));
    // Teal, counted on its own, is still for sale.
    const quote = await shop().checkout.quote({
      lines: [
        { productId: 'k1', colour: 'Sage', size: 'M', quantity: 1 },
        { productId: 'k1', colour: 'Teal', size: 'M', quantity: 1 },
      ],
    });
    expect(quote.lines.map((l) => [l.colour, l.problem, l.left])).toEqual([
      ['Sage', 'sold_out', 0],
      ['Teal', null, 3],
    ]);
  });

  it('a colour without its own count draws from the all-colours pool, and never from another colour', async () => {
    const first = await buy('Mint', 2);
    expect(await count('')).toEqual({ on_hand: 5, reserved: 2 });
    expect(await count('teal')).toEqual({ on_hand: 3, reserved: 0 });
    const hold = await store.handle.db
      .selectFrom('stock_reservations')
      .select(['colour', 'size', 'quantity', 'state'])
      .executeTakeFirstOrThrow();
    expect(hold).toEqual({ colour: '', size: 'M', quantity: 2, state: 'held' });
    // 3 left in the pool: 4 Mint is too many, and the message names the colour and size.
    await expect(buy('mint', 4)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Lawn Kurta: Fewer are left in this size than you asked for. Please lower the quantity.',
    });
    const quote = await shop().checkout.quote({
      lines: [{ productId: 'k1', colour: 'Mint', size: 'M', quantity: 4 }],
    });
    expect(quote.lines.map((l) => [l.problem, l.left])).toEqual([['not_enough_stock', 3]]);
    // A size no pool counts (L) is untracked for every colour: always available.
    await shop().checkout.createSession({
      lines: [{ productId: 'k1', colour: 'Teal', size: 'L', quantity: 10 }],
    });
    await shop().checkout.completeTestPayment({ sessionId: sessionOf(first.url), ...demoShopper });
    expect(await count('')).toEqual({ on_hand: 3, reserved: 0 });
    expect(await count('teal')).toEqual({ on_hand: 3, reserved: 0 });
  });

  it('holds go back to the pool they came from when released, expired or sold late', async () => {
    const teal = await buy('Teal', 2);
    await buy('Mint', 1);
    await buy('Maroon', 1);
    expect([await count('teal'), await count('maroon'), await count('')]).toEqual([
      { on_hand: 3, reserved: 2 },
      { on_hand: 1, reserved: 1 },
      { on_hand: 5, reserved: 1 },
    ]);
    // The owner gives Mint a count of its own meanwhile: the Mint hold still belongs to all colours' pool.
    await store.handle.db
      .transaction()
      .execute((trx) => setStock(trx, 'k1', { M: 5 }, { Teal: { M: 3 }, Maroon: { M: 1 }, Mint: { M: 4 } }));
    const later = new Date(clock.now().getTime() + 31 * 60_000);
    expect(await releaseExpiredReservations(store.handle.db, later)).toBe(3);
    expect([await count('teal'), await count('maroon'), await count(''), await count('mint')]).toEqual([
      { on_hand: 3, reserved: 0 },
      { on_hand: 1, reserved: 0 },
      { on_hand: 5, reserved: 0 },
      { on_hand: 4, reserved: 0 },
    ]);
    // The Teal shopper pays late: the units come out of Teal's own count, nothing else.
    await shop().checkout.completeTestPayment({ sessionId: sessionOf(teal.url), ...demoShopper });
    expect([await count('teal'), await count('maroon'), await count(''), await count('mint')]).toEqual([
      { on_hand: 1, reserved: 0 },
      { on_hand: 1, reserved: 0 },
      { on_hand: 5, reserved: 0 },
      { on_hand: 4, reserved: 0 },
    ]);
  });

  it('a late payment for more than a colour has left is flagged naming the colour and size', async () => {
    const first = await buy('Teal', 3);
    clock.advance(31 * 60_000);
    const second = await buy('Teal', 2);
    await shop().checkout.completeTestPayment({ sessionId: sessionOf(second.url), ...demoShopper });
    expect(await count('teal')).toEqual({ on_hand: 1, reserved: 0 });
    await shop().checkout.completeTestPayment({ sessionId: sessionOf(first.url), ...demoShopper });
    expect(await count('teal')).toEqual({ on_hand: 1, reserved: 0 });
    const order = await store.handle.db
      .selectFrom('orders')
      .select('stock_problem')
      .where('number', '=', first.orderNumber)
      .executeTakeFirstOrThrow();
    expect(order.stock_problem).toBe(
      'Paid for more than was in stock: Lawn Kurta (Teal / M) × 3. Refund it, or restock.',
    );
    // A colour sold from all colours' count is named too, though its hold knows only the pool ('').
    const mint = await buy('Mint', 5);
    clock.advance(31 * 60_000);
    const sage = await buy('Maroon', 1);
    const other = await buy('Mint', 1);
    await shop().checkout.completeTestPayment({ sessionId: sessionOf(other.url), ...demoShopper });
    await shop().checkout.completeTestPayment({ sessionId: sessionOf(mint.url), ...demoShopper });
    await shop().checkout.completeTestPayment({ sessionId: sessionOf(sage.url), ...demoShopper });
    const late = await store.handle.db
      .selectFrom('orders')
      .select('stock_problem')
      .where('number', '=', mint.orderNumber)
      .executeTakeFirstOrThrow();
    expect(late.stock_problem).toBe(
      'Paid for more than was in stock: Lawn Kurta (Mint / M) × 5. Refund it, or restock.',
    );
    expect([await count(''), await count('maroon')]).toEqual([
      { on_hand: 4, reserved: 0 },
      { on_hand: 0, reserved: 0 },
    ]);
  });
});
