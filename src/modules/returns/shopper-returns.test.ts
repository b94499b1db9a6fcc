import { TRPCError } from '@trpc/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETURN_SETTINGS, type ReturnSettings } from '../../shared/returns.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { insertOrderRow } from '../../test-support/orders.js';
import { createTestStore, manualClock, type TestStore } from '../../test-support/test-store.js';
import { createRequestLimits } from '../limits/request-limits.js';
import { saveReturnSettings } from './return-settings.js';

const DAY = 86_400_000;
const NOW = '2026-11-22T10:00:00.000Z';
const daysAgo = (n: number) => new Date(Date.parse(NOW) - n * DAY).toISOString();

/**
 * The shopper's side of returns and exchanges (decision 0039) on the engine under test: the window, final
 * sale, quantities, the reason's resolution, exchange holds and their races, cancelling, the token guard,
 * the limits, the emails and the order page's list.
 */
describe('shopper returns and exchanges', () => {
  let store: TestStore;
  let clock = manualClock(NOW);
  let orderCount = 0;
  beforeEach(async () => {
    clock = manualClock(NOW);
    orderCount = 0;
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    const db = store.handle.db;
    await insertProducts(db, [
      { id: 'kurta', title: 'Lawn Kurta', price_minor: 8900, sizes: '["S","M","L","XL"]', tags: '["lawn"]' },
      { id: 'scarf', title: 'Silk Scarf', price_minor: 3000, sizes: '["One size"]', tags: '["Clearance"]' },
    ]);
    // M is bought; L has one left; XL none (sold out); S untracked.
    await db
      .insertInto('size_stock')
      .values([
        { product_id: 'kurta', colour: '', size: 'M', on_hand: 4 },
        { product_id: 'kurta', colour: '', size: 'L', on_hand: 1 },
        { product_id: 'kurta', colour: '', size: 'XL', on_hand: 0 },
      ])
      .execute();
    await settings({});
  });
  afterEach(async () => store.cleanup());

  const shop = (ip = '203.0.113.7') => store.caller({ clock, ip });

  /** A paid order of `quantity` Kurtas in M (and a final-sale scarf), delivered `deliveredDaysAgo` days ago. */
  async function order(
    opts: {
      quantity?: number;
      delivered?: string | null;
      shipped?: string | null;
      fulfilment?: 'unfulfilled' | 'shipped' | 'delivered';
    } = {},
  ) {
    orderCount += 1;
    const id = `ord_${orderCount}`;
    const token = `tok_${orderCount}_${'x'.repeat(20)}`;
    const delivered = opts.delivered === undefined ? daysAgo(3) : opts.delivered;
    const shipped = opts.shipped === undefined ? daysAgo(5) : opts.shipped;
    await insertOrderRow(store.handle.db, {
      id,
      number: 1000 + orderCount,
      created_at: daysAgo(7),
      customer_email: 'ayesha@example.com',
      customer_name: 'Ayesha Khan',
      access_token: token,
      fulfilment: opts.fulfilment ?? (delivered ? 'delivered' : shipped ? 'shipped' : 'unfulfilled'),
      shipped_at: shipped,
      delivered_at: delivered,
      carrier: shipped ? 'UPS' : null,
      tracking_number: shipped ? '1Z' : null,
    });
    const quantity = opts.quantity ?? 1;
    await store.handle.db
      .insertInto('order_lines')
      .values([
        {
          order_id: id,
          product_id: 'kurta',
          title: 'Lawn Kurta',
          size: 'M',
          quantity,
          unit_price_minor: 8900,
          line_total_minor: 8900 * quantity,
          image_url: null,
        },
        {
          order_id: id,
          product_id: 'scarf',
          title: 'Silk Scarf',
          size: 'One size',
          quantity: 1,
          unit_price_minor: 3000,
          line_total_minor: 3000,
          image_url: null,
        },
      ])
      .execute();
    const lines = await store.handle.db
      .selectFrom('order_lines')
      .select(['id', 'product_id'])
      .where('order_id', '=', id)
      .orderBy('id')
      .execute();
    const kurta = lines.find((l) => l.product_id === 'kurta')?.id ?? 0;
    const scarf = lines.find((l) => l.product_id === 'scarf')?.id ?? 0;
    return { orderId: id, token, kurta, scarf };
  }

  const settings = (more: Partial<ReturnSettings>) =>
    saveReturnSettings(
      store.handle.db,
      { ...DEFAULT_RETURN_SETTINGS, finalSaleTags: ['clearance'], ...more },
      clock.now(),
    );

  async function stock(size: string) {
    return store.handle.db
      .selectFrom('size_stock')
      .select(['on_hand', 'reserved'])
      .where('product_id', '=', 'kurta')
      .where('size', '=', size)
      .executeTakeFirstOrThrow();
  }

  async function failure(promise: Promise<unknown>): Promise<TRPCError> {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TRPCError);
    return error as TRPCError;
  }

  it('offers the next sizes by the size order: L for too small (in stock), S for too big (untracked)', async () => {
    const o = await order();
    const options = await shop().orderPage.returnOptions(o);
    expect(options.eligible).toBe(true);
    expect(options.windowEndsAt).toBe(new Date(Date.parse(daysAgo(3)) + 14 * DAY).toISOString());
    const kurta = options.lines.find((l) => l.lineId === o.kurta);
    expect(kurta).toMatchObject({ returnable: 1, finalSale: false });
    expect(kurta?.nextSizes.too_small).toEqual({
      size: 'L',
      colour: null,
      colourName: null,
      available: 1,
      differenceMinor: 0,
    });
    expect(kurta?.nextSizes.too_big).toEqual({
      size: 'S',
      colour: null,
      colourName: null,
      available: null,
      differenceMinor: 0,
    });
    // XL is sold out: not offered.
    expect(kurta?.alternatives.map((a) => a.size)).toEqual(['S', 'L']);
    expect(options.lines.find((l) => l.lineId === o.scarf)).toMatchObject({ finalSale: true, returnable: 0 });
  });

  it('opens the window from delivery, else from shipping; not before shipping, not after it ends', async () => {
    const shippedOnly = await order({ delivered: null, shipped: daysAgo(13) });
    expect((await shop().orderPage.returnOptions(shippedOnly)).eligible).toBe(true);
    const late = await order({ delivered: null, shipped: daysAgo(15) });
    const lateOptions = await shop().orderPage.returnOptions(late);
    expect(lateOptions.eligible).toBe(false);
    expect(lateOptions.reasonIfNot).toMatch(/14-day return window .* ended/);
    const expired = await order({ delivered: daysAgo(15) });
    expect((await shop().orderPage.returnOptions(expired)).eligible).toBe(false);
    const notSent = await order({ delivered: null, shipped: null });
    const notSentOptions = await shop().orderPage.returnOptions(notSent);
    expect(notSentOptions).toMatchObject({ eligible: false, windowEndsAt: null });
    expect(notSentOptions.reasonIfNot).toMatch(/not been sent/);
    for (const o of [late, expired, notSent]) {
      const e = await failure(
        shop().orderPage.requestReturn({
          ...o,
          reason: 'too_small',
          lines: [{ lineId: o.kurta, quantity: 1 }],
        }),
      );
      expect(e.code).toBe('BAD_REQUEST');
    }
    await settings({ windowDays: 30 });
    expect((await shop().orderPage.returnOptions(expired)).eligible).toBe(true);
  });

  it('refuses a final-sale item, more than was bought, and what is already in a return', async () => {
    const o = await order({ quantity: 2 });
    const finalSale = await failure(
      shop().orderPage.requestReturn({
        ...o,
        reason: 'changed_mind',
        lines: [{ lineId: o.scarf, quantity: 1 }],
      }),
    );
    expect(finalSale.message).toMatch(/final sale/);
    const over = await failure(
      shop().orderPage.requestReturn({
        ...o,
        reason: 'changed_mind',
        lines: [{ lineId: o.kurta, quantity: 3 }],
      }),
    );
    expect(over.message).toMatch(/at most 2/);
    const first = await shop().orderPage.requestReturn({
      ...o,
      reason: 'changed_mind',
      lines: [{ lineId: o.kurta, quantity: 1 }],
    });
    const again = await failure(
      shop().orderPage.requestReturn({
        ...o,
        reason: 'changed_mind',
        lines: [{ lineId: o.kurta, quantity: 2 }],
      }),
    );
    expect(again.message).toMatch(/at most 1/);
    // A cancelled return gives its units back.
    await shop().orderPage.cancelReturn({ ...o, returnId: first.returnId });
    await shop().orderPage.requestReturn({
      ...o,
      reason: 'changed_mind',
      lines: [{ lineId: o.kurta, quantity: 2 }],
    });
    const none = await failure(
      shop().orderPage.requestReturn({
        ...o,
        reason: 'changed_mind',
        lines: [{ lineId: o.kurta, quantity: 1 }],
      }),
    );
    expect(none.message).toMatch(/already in a return/);
  });

  it('refuses a refund for a reason the owner allows only an exchange for', async () => {
    await settings({ refundReasons: ['damaged', 'not_as_pictured'] });
    const o = await order();
    const e = await failure(
      shop().orderPage.requestReturn({
        ...o,
        reason: 'too_small',
        lines: [{ lineId: o.kurta, quantity: 1 }],
      }),
    );
    expect(e.message).toMatch(/offers an exchange/);
    expect((await shop().orderPage.returnOptions(o)).settings.refundReasons).toEqual([
      'not_as_pictured',
      'damaged',
    ]);
    await shop().orderPage.requestReturn({
      ...o,
      reason: 'too_small',
      lines: [{ lineId: o.kurta, quantity: 1, exchange: { size: 'l' } }],
    });
  });

  it('holds the exchange size, lists the return on the order page, and gives the unit back on cancel', async () => {
    const o = await order();
    const { returnId } = await shop().orderPage.requestReturn({
      ...o,
      reason: 'too_small',
      lines: [{ lineId: o.kurta, quantity: 1, exchange: { size: 'L' } }],
    });
    expect(returnId).toMatch(/^ret_/);
    expect(await stock('L')).toEqual({ on_hand: 1, reserved: 1 });
    const held = await store.handle.db.selectFrom('return_lines').selectAll().executeTakeFirstOrThrow();
    expect(held).toMatchObject({ quantity: 1, exchange_size: 'L', exchange_colour: '', held: 1 });
    // The last L is held: the next shopper is not offered it.
    const other = await order();
    expect((await shop().orderPage.returnOptions(other)).lines[0]?.nextSizes.too_small).toBeNull();
    const view = await shop().orderPage.view({ id: o.orderId, token: o.token });
    expect(view.returns).toEqual([
      {
        id: returnId,
        status: 'requested',
        reason: 'too_small',
        resolution: 'exchange',
        createdAt: NOW,
        lines: [
          {
            lineId: o.kurta,
            title: 'Lawn Kurta',
            quantity: 1,
            exchangeSize: 'L',
            exchangeColour: null,
            differenceMinor: 0,
          },
        ],
        difference: null,
        exchangeTracking: null,
        refundedMinor: null,
        declineReason: null,
      },
    ]);
    expect(await shop().orderPage.cancelReturn({ ...o, returnId })).toEqual({ ok: true });
    expect(await stock('L')).toEqual({ on_hand: 1, reserved: 0 });
    const twice = await failure(shop().orderPage.cancelReturn({ ...o, returnId }));
    expect(twice.message).toMatch(/already cancelled/);
    expect(await stock('L')).toEqual({ on_hand: 1, reserved: 0 });
    const emails = await store.handle.db
      .selectFrom('email_outbox')
      .select(['kind', 'subject', 'text_body'])
      .where('order_id', '=', o.orderId)
      .orderBy('created_at')
      .execute();
    expect(emails.map((e) => e.kind)).toEqual(['return_step', 'return_step']);
    expect(emails[0]?.subject).toMatch(/Order #\d+: we received your exchange request/);
    expect(emails[0]?.text_body).toContain('Lawn Kurta (M) × 1 → L');
    expect(emails[0]?.text_body).toContain(`https://shop.example/order/${o.orderId}?token=`);
    expect(emails[1]?.subject).toMatch(/cancelled/);
    const events = await store.handle.db
      .selectFrom('order_events')
      .select(['kind', 'actor'])
      .where('order_id', '=', o.orderId)
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      { kind: 'return_requested', actor: 'shopper' },
      { kind: 'return_cancelled', actor: 'shopper' },
    ]);
  });

  it('refuses an exchange to a sold-out size, another product’s size, or a colour it does not have', async () => {
    const o = await order();
    const soldOut = await failure(
      shop().orderPage.requestReturn({
        ...o,
        reason: 'too_small',
        lines: [{ lineId: o.kurta, quantity: 1, exchange: { size: 'XL' } }],
      }),
    );
    expect(soldOut.message).toMatch(/sold out/);
    const unknown = await failure(
      shop().orderPage.requestReturn({
        ...o,
        reason: 'too_small',
        lines: [{ lineId: o.kurta, quantity: 1, exchange: { size: 'XXL' } }],
      }),
    );
    expect(unknown.message).toMatch(/does not come in size XXL/);
    const colour = await failure(
      shop().orderPage.requestReturn({
        ...o,
        reason: 'too_small',
        lines: [{ lineId: o.kurta, quantity: 1, exchange: { size: 'L', colour: 'Teal' } }],
      }),
    );
    expect(colour.message).toMatch(/one colour/);
    expect(await store.handle.db.selectFrom('returns').select('id').execute()).toEqual([]);
    expect(await stock('L')).toEqual({ on_hand: 1, reserved: 0 });
  });

  it('gives one of 20 requests for one line at once', async () => {
    const o = await order();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        shop().orderPage.requestReturn({
          ...o,
          reason: 'changed_mind',
          lines: [{ lineId: o.kurta, quantity: 1 }],
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lines = await store.handle.db.selectFrom('return_lines').select('quantity').execute();
    expect(lines).toEqual([{ quantity: 1 }]);
  });

  it('gives the last L to one of 10 exchanges at once', async () => {
    const orders = [];
    for (let i = 0; i < 10; i++) orders.push(await order());
    const results = await Promise.allSettled(
      orders.map((o) =>
        shop().orderPage.requestReturn({
          ...o,
          reason: 'too_small',
          lines: [{ lineId: o.kurta, quantity: 1, exchange: { size: 'L' } }],
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(String(r.reason)).toMatch(/sold out/);
    expect(await stock('L')).toEqual({ on_hand: 1, reserved: 1 });
    expect(await store.handle.db.selectFrom('returns').select('id').execute()).toHaveLength(1);
  });

  it('answers NOT_FOUND to a wrong token, and to another order’s return, on every procedure', async () => {
    const o = await order();
    const other = await order();
    const { returnId } = await shop().orderPage.requestReturn({
      ...other,
      reason: 'changed_mind',
      lines: [{ lineId: other.kurta, quantity: 1 }],
    });
    const wrong = { orderId: o.orderId, token: other.token };
    const calls = [
      () => shop().orderPage.view({ id: o.orderId, token: other.token }),
      () => shop().orderPage.returnOptions(wrong),
      () =>
        shop().orderPage.requestReturn({
          ...wrong,
          reason: 'changed_mind',
          lines: [{ lineId: o.kurta, quantity: 1 }],
        }),
      () => shop().orderPage.cancelReturn({ ...wrong, returnId }),
      () => shop().orderPage.returnOptions({ orderId: 'ord_none', token: o.token }),
      // The right order and token, but the return is another order's.
      () => shop().orderPage.cancelReturn({ ...o, returnId }),
    ];
    for (const call of calls) expect((await failure(call())).code).toBe('NOT_FOUND');
    // Another order's line is not this order's.
    const foreign = await failure(
      shop().orderPage.requestReturn({
        ...o,
        reason: 'changed_mind',
        lines: [{ lineId: other.kurta, quantity: 1 }],
      }),
    );
    expect(foreign.message).toMatch(/not on this order/);
    expect(
      (await store.handle.db.selectFrom('returns').select('status').execute()).map((r) => r.status),
    ).toEqual(['requested']);
  });

  it('limits requests per order and per address', async () => {
    const o = await order({ quantity: 10 });
    for (let i = 0; i < 5; i++) {
      const { returnId } = await shop().orderPage.requestReturn({
        ...o,
        reason: 'changed_mind',
        lines: [{ lineId: o.kurta, quantity: 1 }],
      });
      // Cancelled ones still count: asking and withdrawing is not free for the shop.
      if (i % 2 === 0) await shop().orderPage.cancelReturn({ ...o, returnId });
    }
    const sixth = await failure(
      shop().orderPage.requestReturn({
        ...o,
        reason: 'changed_mind',
        lines: [{ lineId: o.kurta, quantity: 1 }],
      }),
    );
    expect(sixth.code).toBe('TOO_MANY_REQUESTS');
    const limits = createRequestLimits({});
    const limited = (ip: string) => store.caller({ clock, ip, limits });
    for (let i = 0; i < 10; i++) {
      const next = await order();
      await limited('198.51.100.1').orderPage.requestReturn({
        ...next,
        reason: 'changed_mind',
        lines: [{ lineId: next.kurta, quantity: 1 }],
      });
    }
    const next = await order();
    const ask = (ip: string) =>
      limited(ip).orderPage.requestReturn({
        ...next,
        reason: 'changed_mind',
        lines: [{ lineId: next.kurta, quantity: 1 }],
      });
    expect((await failure(ask('198.51.100.1'))).code).toBe('TOO_MANY_REQUESTS');
    await ask('198.51.100.2');
  });

  it('offers and holds the next size in the bought colour, from its own count, or another colour', async () => {
    const db = store.handle.db;
    const colour = (name: string) => ({
      name,
      hex: null,
      skuSuffix: null,
      priceMinor: null,
      images: [],
      sizeDetail: null,
    });
    await insertProducts(db, [
      {
        id: 'tunic',
        title: 'Cotton Tunic',
        price_minor: 5000,
        sizes: '["S","M","L"]',
        colors: '["Teal","Mint"]',
        colour_options: JSON.stringify([colour('Teal'), colour('Mint')]),
      },
    ]);
    // Teal L has its own count (none left); every other colour's L draws on the all-colours count.
    await db
      .insertInto('size_stock')
      .values([
        { product_id: 'tunic', colour: 'teal', size: 'L', on_hand: 0 },
        { product_id: 'tunic', colour: '', size: 'L', on_hand: 2 },
      ])
      .execute();
    const o = await order();
    const line = await db
      .insertInto('order_lines')
      .values({
        order_id: o.orderId,
        product_id: 'tunic',
        title: 'Cotton Tunic',
        colour: 'Teal',
        size: 'M',
        quantity: 1,
        unit_price_minor: 5000,
        line_total_minor: 5000,
        image_url: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const options = await shop().orderPage.returnOptions(o);
    const tunic = options.lines.find((l) => l.lineId === line.id);
    expect(tunic?.nextSizes.too_small).toBeNull();
    expect(tunic?.nextSizes.too_big).toEqual({
      size: 'S',
      colour: 'teal',
      colourName: 'Teal',
      available: null,
      differenceMinor: 0,
    });
    expect(tunic?.alternatives).toContainEqual({
      size: 'L',
      colour: 'mint',
      colourName: 'Mint',
      available: 2,
      differenceMinor: 0,
    });
    const soldOut = await failure(
      shop().orderPage.requestReturn({
        ...o,
        reason: 'too_small',
        lines: [{ lineId: line.id, quantity: 1, exchange: { size: 'L' } }],
      }),
    );
    expect(soldOut.message).toMatch(/Cotton Tunic \(Teal \/ L\): this size is sold out/);
    const { returnId } = await shop().orderPage.requestReturn({
      ...o,
      reason: 'too_small',
      lines: [{ lineId: line.id, quantity: 1, exchange: { size: 'L', colour: 'MINT' } }],
    });
    const all = await db
      .selectFrom('size_stock')
      .select('reserved')
      .where('product_id', '=', 'tunic')
      .where('colour', '=', '')
      .executeTakeFirstOrThrow();
    expect(all.reserved).toBe(1);
    const view = await shop().orderPage.view({ id: o.orderId, token: o.token });
    expect(view.returns[0]?.lines[0]).toMatchObject({ exchangeSize: 'L', exchangeColour: 'Mint' });
    await shop().orderPage.cancelReturn({ ...o, returnId });
    const after = await db
      .selectFrom('size_stock')
      .select('reserved')
      .where('product_id', '=', 'tunic')
      .where('colour', '=', '')
      .executeTakeFirstOrThrow();
    expect(after.reserved).toBe(0);
  });

  it('refuses hostile inputs with clear errors', async () => {
    const o = await order();
    const ask = (input: Record<string, unknown>) =>
      failure(
        shop().orderPage.requestReturn({
          ...o,
          reason: 'changed_mind',
          lines: [{ lineId: o.kurta, quantity: 1 }],
          ...input,
        } as Parameters<ReturnType<typeof shop>['orderPage']['requestReturn']>[0]),
      );
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ lines: [{ lineId: o.kurta, quantity: -1 }] }, /at least one/],
      [{ lines: [{ lineId: o.kurta, quantity: 0 }] }, /at least one/],
      [{ lines: [{ lineId: o.kurta, quantity: 1e12 }] }, /more than this order has/],
      [{ lines: [{ lineId: o.kurta, quantity: 1.5 }] }, /whole number/],
      [{ lines: [] }, /at least one item/],
      [{ lines: Array.from({ length: 51 }, (_, i) => ({ lineId: i + 1, quantity: 1 })) }, /at most 50/],
      [
        {
          lines: [
            { lineId: o.kurta, quantity: 1 },
            { lineId: o.kurta, quantity: 1 },
          ],
        },
        /each item once/,
      ],
      [{ lines: [{ lineId: 999_999, quantity: 1 }] }, /not on this order/],
      [{ reason: 'other' }, /Tell us why/],
      [{ reason: 'other', reasonText: 'x'.repeat(501) }, /under 500/],
      [{ reason: 'lost' }, /Choose a reason/],
    ];
    for (const [input, message] of cases) {
      const e = await ask(input);
      expect(e.code, JSON.stringify(input).slice(0, 80)).toBe('BAD_REQUEST');
      expect(e.message, JSON.stringify(input).slice(0, 80)).toMatch(message);
    }
    expect(await store.handle.db.selectFrom('returns').select('id').execute()).toEqual([]);
    await shop().orderPage.requestReturn({
      ...o,
      reason: 'other',
      reasonText: 'The seams came apart',
      lines: [{ lineId: o.kurta, quantity: 1 }],
    });
  });
});
