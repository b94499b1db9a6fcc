import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { productRow } from '../../test-support/fixtures.js';
import { insertOrderRow, ownerSession as owner } from '../../test-support/orders.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { orderCsvRows } from '../orders/orders-csv.js';

/**
 * admin.dashboard.sellThrough on data counted by hand, in Asia/Karachi (UTC+5): 1–28 November there is
 * [2026-10-31T19:00Z, 2026-11-28T19:00Z).
 *
 * Kurta (S, M, L, XL; Teal and Rust counted apart): on hand S 2+1, M 0+0 (sold out), L 4+6, XL not tracked.
 *   o1 at the first instant: M×3, S×1 · o2: M×2 (1 refunded), L×1, XL×1 · o3 at the last millisecond: L×2
 *   o4 at the end (29 November there): M×5, not counted · o5 just before the start: S×4, not counted
 *   o6 expired unpaid, created in the period: M×7, not counted.
 *   Sold: S 1, M 4, L 3, XL 1 (9).
 * Shirt (S, M): on hand S 5, M 2; o7: 'm'×2 (a shopper's spelling), S×1.
 * Dupatta (M, S in that order): on hand M 1 and 'Free' 3 (a size it no longer offers); o8: M×1 and XS×2 (a
 *   size it offered once).
 */
const ZONE = 'Asia/Karachi';
const NOVEMBER = { preset: 'custom' as const, from: '2026-11-01', to: '2026-11-28' };
const START = '2026-10-31T19:00:00.000Z';
const END = '2026-11-28T19:00:00.000Z';
const clock = { now: () => new Date('2026-11-29T10:00:00.000Z') };

type Line = { productId: string; size: string; quantity: number; colour?: string; refunded?: number };

async function order(
  db: Db,
  id: string,
  number: number,
  paidAt: string | null,
  lines: Line[],
): Promise<void> {
  await insertOrderRow(db, {
    id,
    number,
    created_at: paidAt ?? '2026-11-10T00:00:00.000Z',
    status: paidAt ? 'paid' : 'expired',
    paid_at: paidAt,
    subtotal_minor: lines.reduce((s, l) => s + l.quantity * 1000, 0),
    total_minor: lines.reduce((s, l) => s + l.quantity * 1000, 0),
  });
  for (const l of lines) {
    await db
      .insertInto('order_lines')
      .values({
        order_id: id,
        product_id: l.productId,
        title: l.productId,
        colour: l.colour ?? null,
        size: l.size,
        quantity: l.quantity,
        unit_price_minor: 1000,
        line_total_minor: l.quantity * 1000,
        image_url: null,
        regular_unit_price_minor: null,
        sale_id: null,
        sale_name: null,
        refunded_quantity: l.refunded ?? 0,
      })
      .execute();
  }
}

describe('admin.dashboard.sellThrough', () => {
  let store: TestStore;
  const staff = { ...owner, id: 2, role: 'staff' as const };
  const call = (input: Parameters<ReturnType<TestStore['caller']>['admin']['dashboard']['sellThrough']>[0]) =>
    store.caller({ admin: staff, clock }).admin.dashboard.sellThrough(input);

  beforeAll(async () => {
    store = await createTestStore();
    const db = store.handle.db;
    await db.updateTable('settings').set({ time_zone: ZONE }).where('id', '=', 1).execute();
    await db
      .insertInto('products')
      .values({ ...productRow({ id: 'kurta', title: 'Lawn Kurta', colors: '["Teal","Rust"]' }), sku: 'K' })
      .execute();
    await db
      .insertInto('products')
      .values({ ...productRow({ id: 'shirt', title: 'Shirt' }), sizes: '["S","M"]', sku: 'S' })
      .execute();
    await db
      .insertInto('products')
      .values({ ...productRow({ id: 'dupatta', title: 'Dupatta' }), sizes: '["M","S"]', sku: 'D' })
      .execute();
    const stock: Array<[string, string, string, number]> = [
      ['kurta', 'teal', 'S', 2],
      ['kurta', 'rust', 'S', 1],
      ['kurta', 'teal', 'M', 0],
      ['kurta', 'rust', 'M', 0],
      ['kurta', 'teal', 'L', 4],
      ['kurta', 'rust', 'L', 6],
      ['shirt', '', 'S', 5],
      ['shirt', '', 'M', 2],
      ['dupatta', '', 'M', 1],
      ['dupatta', '', 'Free', 3],
    ];
    await db
      .insertInto('size_stock')
      .values(stock.map(([product_id, colour, size, on_hand]) => ({ product_id, colour, size, on_hand })))
      .execute();
    await order(db, 'o1', 1, START, [
      { productId: 'kurta', size: 'M', quantity: 3, colour: 'Teal' },
      { productId: 'kurta', size: 'S', quantity: 1, colour: 'Rust' },
    ]);
    await order(db, 'o2', 2, '2026-11-10T12:00:00.000Z', [
      { productId: 'kurta', size: 'M', quantity: 2, colour: 'Rust', refunded: 1 },
      { productId: 'kurta', size: 'L', quantity: 1, colour: 'Teal' },
      { productId: 'kurta', size: 'XL', quantity: 1, colour: 'Teal' },
    ]);
    await order(db, 'o3', 3, '2026-11-28T18:59:59.999Z', [
      { productId: 'kurta', size: 'L', quantity: 2, colour: 'Rust' },
    ]);
    await order(db, 'o4', 4, END, [{ productId: 'kurta', size: 'M', quantity: 5, colour: 'Teal' }]);
    await order(db, 'o5', 5, '2026-10-31T18:59:59.999Z', [
      { productId: 'kurta', size: 'S', quantity: 4, colour: 'Teal' },
    ]);
    await order(db, 'o6', 6, null, [{ productId: 'kurta', size: 'M', quantity: 7, colour: 'Teal' }]);
    await order(db, 'o7', 7, '2026-11-20T08:00:00.000Z', [
      { productId: 'shirt', size: 'm', quantity: 2 },
      { productId: 'shirt', size: 'S', quantity: 1 },
    ]);
    await order(db, 'o8', 8, '2026-11-21T08:00:00.000Z', [
      { productId: 'dupatta', size: 'M', quantity: 1 },
      { productId: 'dupatta', size: 'XS', quantity: 2 },
    ]);
  });
  afterAll(async () => store.cleanup());

  it("counts one product's units by size, net of refunds, in its own size order, with the reorder mix", async () => {
    const view = await call({ ...NOVEMBER, productId: 'kurta', reorderPieces: 20 });
    expect(view).toEqual({
      range: { from: '2026-11-01', to: '2026-11-28', startsAt: START, endsAt: END, days: 28 },
      productId: 'kurta',
      title: 'Lawn Kurta',
      reorderPieces: 20,
      // 20 × (1, 4, 3, 1)/9 = 2 r2, 8 r8, 6 r6, 2 r2: 18 whole, the two left to M and L.
      sizes: [
        { size: 'S', sold: 1, onHand: 3, rate: 1 / 4, reorder: 2 },
        { size: 'M', sold: 4, onHand: 0, rate: 1, reorder: 9 },
        { size: 'L', sold: 3, onHand: 10, rate: 3 / 13, reorder: 7 },
        { size: 'XL', sold: 1, onHand: 0, rate: null, reorder: 2 },
      ],
    });
  });

  it('gives a sold-out size the tie before a size still in stock', async () => {
    // 1 piece over (1, 4, 3, 1)/9: every share under one, remainders 1, 4, 3, 1 of 9: M's.
    // 3 over the same: 0 r3, 1 r3, 1 r0, 0 r3: one left for S, M (sold out) or XL: M first, then S.
    const view = await call({ ...NOVEMBER, productId: 'kurta', reorderPieces: 3 });
    expect(view.sizes.map((s) => s.reorder)).toEqual([0, 2, 1, 0]);
  });

  it('counts the whole catalogue by size name, spellings folded, in size order', async () => {
    const view = await call(NOVEMBER);
    expect(view.productId).toBeNull();
    expect(view.title).toBeNull();
    expect(view.reorderPieces).toBe(50);
    // By size order, whatever order a product lists them in; sizes no size list names (Free) last.
    // 50 × (2, 2, 7, 3, 1, 0)/15 = 6 r10, 6 r10, 23 r5, 10 r0, 3 r5, 0: 48 whole, the two left to XS and S.
    expect(view.sizes).toEqual([
      { size: 'XS', sold: 2, onHand: 0, rate: null, reorder: 7 },
      { size: 'S', sold: 2, onHand: 8, rate: 2 / 10, reorder: 7 },
      { size: 'M', sold: 7, onHand: 3, rate: 7 / 10, reorder: 23 },
      { size: 'L', sold: 3, onHand: 10, rate: 3 / 13, reorder: 10 },
      { size: 'XL', sold: 1, onHand: 0, rate: null, reorder: 3 },
      { size: 'FREE', sold: 0, onHand: 3, rate: 0, reorder: 0 },
    ]);
  });

  it("keeps a product's own size order, then the sizes it sold or counts but no longer offers", async () => {
    const view = await call({ ...NOVEMBER, productId: 'dupatta', reorderPieces: 5 });
    // 5 × (1, 0, 2, 0)/3 = 1 r2, 0, 3 r1, 0: the fifth to M.
    expect(view.sizes).toEqual([
      { size: 'M', sold: 1, onHand: 1, rate: 1 / 2, reorder: 2 },
      { size: 'S', sold: 0, onHand: 0, rate: null, reorder: 0 },
      { size: 'XS', sold: 2, onHand: 0, rate: null, reorder: 3 },
      { size: 'Free', sold: 0, onHand: 3, rate: 0, reorder: 0 },
    ]);
  });

  it("counts the units the orders CSV gives for the same period, less the CSV's refunded units", async () => {
    const rows: string[] = [];
    for await (const row of orderCsvRows(store.handle.db, { from: START, to: END })) rows.push(row.trim());
    const [head = '', ...body] = rows;
    const column = head.split(',');
    const at = (name: string) => column.indexOf(name);
    const sold = new Map<string, number>();
    for (const line of body) {
      const cells = line.split(',');
      if (cells[at('product_id')] !== 'kurta') continue;
      const size = cells[at('size')] ?? '';
      sold.set(
        size,
        (sold.get(size) ?? 0) + Number(cells[at('quantity')]) - Number(cells[at('refunded_quantity')]),
      );
    }
    const view = await call({ ...NOVEMBER, productId: 'kurta' });
    expect(Object.fromEntries(view.sizes.map((s) => [s.size, s.sold]))).toEqual(Object.fromEntries(sold));
  });

  it('splits evenly when nothing sold in the period', async () => {
    const view = await call({
      preset: 'custom',
      from: '2026-06-01',
      to: '2026-06-30',
      productId: 'kurta',
      reorderPieces: 10,
    });
    expect(view.sizes.map((s) => [s.sold, s.reorder])).toEqual([
      [0, 3],
      [0, 3],
      [0, 2],
      [0, 2],
    ]);
  });

  it('refuses an unknown product, a reorder of no pieces or too many, and a period it cannot draw', async () => {
    await expect(call({ productId: 'nobody' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    for (const bad of [
      { reorderPieces: 0 },
      { reorderPieces: -5 },
      { reorderPieces: 100_001 },
      { reorderPieces: 2.5 },
      { reorderPieces: Number.POSITIVE_INFINITY },
      { productId: '' },
      { productId: 'x'.repeat(101) },
      { preset: 'custom' as const },
      { preset: 'custom' as const, from: '2026-02-30', to: '2026-03-01' },
      { preset: 'custom' as const, from: '2025-01-01', to: '2026-11-28' },
      { preset: 'custom' as const, from: '2026-11-28', to: '2026-11-01' },
    ]) {
      await expect(call(bad), JSON.stringify(bad)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
  });
});
