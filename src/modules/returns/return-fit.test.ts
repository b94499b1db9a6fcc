import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMaintenance } from '../../ops/maintenance.js';
import { DEFAULT_RETURN_SETTINGS, type ReturnSettings } from '../../shared/returns.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { insertOrderRow, ownerSession } from '../../test-support/orders.js';
import { createTestStore, manualClock, type TestStore } from '../../test-support/test-store.js';
import { LogService } from '../logs/log-service.js';
import { DemoGateway } from '../payments/demo-gateway.js';
import { eraseSpentFits } from './fit-retention.js';
import { saveReturnSettings } from './return-settings.js';

const DAY = 86_400_000;
const NOW = '2026-11-22T10:00:00.000Z';
const daysAgo = (n: number) => new Date(Date.parse(NOW) - n * DAY).toISOString();
const IN = 2.54;

/** The body each size fits, in inches: chest and waist compare, length is the garment's own. */
const CHART = {
  S: { 'Chest (in)': '36', 'Waist (in)': '30', 'Length (in)': '40' },
  M: { 'Chest (in)': '38', 'Waist (in)': '32', 'Length (in)': '41' },
  L: { 'Chest (in)': '40', 'Waist (in)': '34', 'Length (in)': '42' },
  XL: { 'Chest (in)': '42', 'Waist (in)': '36', 'Length (in)': '43' },
};
/** Measurements in cm that the chart reads as one size. */
const BODY = {
  M: { chest: 38 * IN, waist: 32 * IN },
  L: { chest: 40 * IN, waist: 34 * IN },
  between: { chest: 39 * IN },
};

/**
 * A too-small or too-big exchange offers first the size the line's fit finder measurements fit (decision
 * 0040) when it lies that way and is in stock, else the next size by the size order as before; the
 * measurements are shown to the owner and erased once the order can no longer be returned.
 */
describe('return options from the fit finder measurements', () => {
  let store: TestStore;
  const clock = manualClock(NOW);
  let count = 0;
  const db = () => store.handle.db;
  beforeEach(async () => {
    count = 0;
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(db(), [
      { id: 'kurta', title: 'Lawn Kurta', size_detail: JSON.stringify(CHART) },
      { id: 'plain', title: 'Plain Kurta' },
      {
        id: 'teal',
        title: 'Teal Kurta',
        colors: '["Teal"]',
        // The colour has its own chart, one size up from the product's: its numbers decide.
        colour_options: JSON.stringify([
          {
            name: 'Teal',
            hex: null,
            skuSuffix: null,
            priceMinor: null,
            images: [],
            sizeDetail: {
              S: { 'Chest (in)': '38' },
              M: { 'Chest (in)': '40' },
              L: { 'Chest (in)': '42' },
              XL: { 'Chest (in)': '44' },
            },
          },
        ]),
        size_detail: JSON.stringify(CHART),
      },
    ]);
    await settings({});
  });
  afterEach(async () => store.cleanup());

  const settings = (more: Partial<ReturnSettings>) =>
    saveReturnSettings(db(), { ...DEFAULT_RETURN_SETTINGS, ...more }, clock.now());

  async function setStock(productId: string, counts: Record<string, number>, colour = '') {
    await db()
      .insertInto('size_stock')
      .values(
        Object.entries(counts).map(([size, on_hand]) => ({ product_id: productId, colour, size, on_hand })),
      )
      .execute();
  }

  /** A delivered order of one line bought in `size` with `fit` (cm), or none. */
  async function order(
    size: string,
    fit: Record<string, number> | null,
    opts: {
      productId?: string;
      colour?: string | null;
      delivered?: string | null;
      status?: 'paid' | 'expired';
    } = {},
  ) {
    count += 1;
    const id = `ord_${count}`;
    const token = `tok_${count}_${'x'.repeat(20)}`;
    const delivered = opts.delivered === undefined ? daysAgo(3) : opts.delivered;
    await insertOrderRow(db(), {
      id,
      number: 1000 + count,
      created_at: daysAgo(7),
      status: opts.status ?? 'paid',
      access_token: token,
      fulfilment: delivered ? 'delivered' : 'unfulfilled',
      shipped_at: delivered ? daysAgo(5) : null,
      delivered_at: delivered,
    });
    await db()
      .insertInto('order_lines')
      .values({
        order_id: id,
        product_id: opts.productId ?? 'kurta',
        title: 'Kurta',
        colour: opts.colour ?? null,
        size,
        quantity: 1,
        unit_price_minor: 5000,
        line_total_minor: 5000,
        image_url: null,
        fit_cm: fit ? JSON.stringify(fit) : null,
      })
      .execute();
    const line = await db()
      .selectFrom('order_lines')
      .select('id')
      .where('order_id', '=', id)
      .executeTakeFirstOrThrow();
    return { orderId: id, token, line: line.id };
  }

  async function nextSizes(o: { orderId: string; token: string; line: number }) {
    const options = await store
      .caller({ clock })
      .orderPage.returnOptions({ orderId: o.orderId, token: o.token });
    const line = options.lines.find((l) => l.lineId === o.line);
    return {
      too_small: line?.nextSizes.too_small
        ? [line.nextSizes.too_small.size, line.nextSizes.too_small.fitted ?? false]
        : null,
      too_big: line?.nextSizes.too_big
        ? [line.nextSizes.too_big.size, line.nextSizes.too_big.fitted ?? false]
        : null,
    };
  }

  it('too small: the size the measurements fit goes before the next size up', async () => {
    await setStock('kurta', { S: 2, M: 2, L: 2, XL: 2 });
    // Bought S; the chart says L: M (the next size) is passed over.
    expect(await nextSizes(await order('S', BODY.L))).toEqual({ too_small: ['L', true], too_big: null });
    // The walk alone, without measurements.
    expect(await nextSizes(await order('S', null))).toEqual({ too_small: ['M', false], too_big: null });
  });

  it('too big: the smaller size the measurements fit, the next size up still by the walk', async () => {
    await setStock('kurta', { S: 2, M: 2, L: 2, XL: 2 });
    expect(await nextSizes(await order('XL', BODY.M))).toEqual({ too_small: null, too_big: ['M', true] });
  });

  it('falls back to the walk when the fitted size is out of stock', async () => {
    await setStock('kurta', { S: 2, M: 2, L: 0, XL: 2 });
    // L is the fit but none is left: the walk from S gives M.
    expect(await nextSizes(await order('S', BODY.L))).toEqual({ too_small: ['M', false], too_big: null });
  });

  it('falls back to the walk when the fit lies the wrong way, is the size bought, or is no single size', async () => {
    await setStock('kurta', { S: 2, M: 2, L: 2, XL: 2 });
    // Bought L, the measurements say M: too big gets M fitted, too small keeps the walk (XL).
    expect(await nextSizes(await order('L', BODY.M))).toEqual({
      too_small: ['XL', false],
      too_big: ['M', true],
    });
    // Bought M, the measurements say M: nothing to prefer.
    expect(await nextSizes(await order('M', BODY.M))).toEqual({
      too_small: ['L', false],
      too_big: ['S', false],
    });
    // Between M and L: the finder recommends neither, so the walk decides.
    expect(await nextSizes(await order('S', BODY.between))).toEqual({
      too_small: ['M', false],
      too_big: null,
    });
  });

  it('falls back to the walk for a product without a chart', async () => {
    await setStock('plain', { S: 2, M: 2, L: 2, XL: 2 });
    expect(await nextSizes(await order('S', BODY.L, { productId: 'plain' }))).toEqual({
      too_small: ['M', false],
      too_big: null,
    });
  });

  it("reads the colour's own chart when it has one", async () => {
    await setStock('teal', { S: 2, M: 2, L: 2, XL: 2 }, 'teal');
    // Chest 40 in is M on Teal's chart (L on the product's).
    expect(
      await nextSizes(await order('XL', { chest: 40 * IN }, { productId: 'teal', colour: 'Teal' })),
    ).toEqual({
      too_small: null,
      too_big: ['M', true],
    });
  });

  it("shows the owner a line's measurements", async () => {
    const o = await order('S', { chest: 96.52, waist: 81 });
    const detail = await store.caller({ clock, admin: ownerSession }).admin.orders.byId({ id: o.orderId });
    expect(detail.lines.map((l) => l.fitCm)).toEqual([{ chest: 96.52, waist: 81 }]);
  });

  it('erases them once the order can no longer be returned, and the walk decides again', async () => {
    await setStock('kurta', { S: 2, M: 2, L: 2, XL: 2 });
    const open = await order('S', BODY.L);
    const notSent = await order('S', BODY.L, { delivered: null });
    const ended = await order('S', BODY.L, { delivered: daysAgo(15) });
    const expired = await order('S', BODY.L, { delivered: null, status: 'expired' });
    const cancelled = await order('S', BODY.L, { delivered: null });
    await db()
      .updateTable('orders')
      .set({ fulfilment: 'cancelled' })
      .where('id', '=', cancelled.orderId)
      .execute();
    const lines = () => db().selectFrom('order_lines').select(['order_id', 'fit_cm']).orderBy('id').execute();
    const held = async () => (await lines()).filter((l) => l.fit_cm !== null).map((l) => l.order_id);

    expect(await eraseSpentFits(db(), clock.now())).toBe(3);
    expect(await held()).toEqual([open.orderId, notSent.orderId]);
    // Only the measurements go: the lines stay.
    const erased = (await lines()).filter((l) => l.fit_cm === null).map((l) => l.order_id);
    expect(erased).toEqual([ended.orderId, expired.orderId, cancelled.orderId]);
    expect(await eraseSpentFits(db(), clock.now())).toBe(0);
    expect(await nextSizes(open)).toEqual({ too_small: ['L', true], too_big: null });

    // Sixteen days on, the open order's window (14 days from delivery) has ended too.
    const later = new Date(Date.parse(NOW) + 16 * DAY);
    expect(await eraseSpentFits(db(), later)).toBe(1);
    expect(await held()).toEqual([notSent.orderId]);

    // A shop that takes no returns online keeps nobody's.
    await settings({ windowDays: 0 });
    expect(await eraseSpentFits(db(), clock.now())).toBe(1);
    expect(await held()).toEqual([]);
    await settings({});
    expect(await nextSizes(open)).toEqual({ too_small: ['M', false], too_big: null });
  });

  it('the housekeeping round erases them', async () => {
    const ended = await order('S', BODY.L, { delivered: daysAgo(15) });
    const open = await order('S', BODY.L);
    await runMaintenance({
      db: db(),
      clock,
      logs: new LogService({ db: db(), limits: { maxEntries: 1000, retentionDays: 30 } }),
      log: Fastify({ logger: false }).log,
      payments: new DemoGateway(),
      publicUrl: 'https://shop.example',
      auditRetentionDays: 90,
    });
    const rows = await db().selectFrom('order_lines').select(['order_id', 'fit_cm']).orderBy('id').execute();
    expect(rows.map((r) => [r.order_id, r.fit_cm !== null])).toEqual([
      [ended.orderId, false],
      [open.orderId, true],
    ]);
  });
});
