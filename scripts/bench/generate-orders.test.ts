import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderCsvRows } from '../../src/modules/orders/orders-csv.js';
import { createTestStore, type TestStore } from '../../src/test-support/test-store.js';
import { generateCatalogue } from './generate-catalogue.js';
import { type GeneratedTrade, generateTrade } from './generate-orders.js';

const NOW = new Date('2026-11-28T15:30:00.000Z');
const DAY_MS = 86_400_000;

/** One CSV record's fields (the export quotes fields with commas, quotes or line breaks). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

/**
 * The dashboard bench's trade: spread over the days asked for, in both currencies and all three methods, with
 * refunds and returns at about the rates asked, every order adding up as the store writes it, and the orders
 * CSV exporting exactly the paid ones (what the dashboard's figures are checked against).
 */
describe('the generated trade', () => {
  let store: TestStore;
  let made: GeneratedTrade;
  beforeAll(async () => {
    store = await createTestStore();
    await generateCatalogue(store.handle.db, 300);
    made = await generateTrade(store.handle.db, store.engine, {
      orders: 3_000,
      days: 400,
      now: NOW,
      vitals: 2_000,
      logs: 1_000,
    });
  }, 120_000);
  afterAll(() => store.cleanup());

  it('spreads orders over the days, currencies and methods, and refunds and returns some', async () => {
    const db = store.handle.db;
    const orders = await db
      .selectFrom('orders')
      .select(['created_at', 'paid_at', 'status', 'currency', 'payment_method'])
      .execute();
    expect(orders).toHaveLength(3_000);
    expect(made.orders).toBe(3_000);
    const created = orders.map((o) => new Date(o.created_at).getTime());
    expect(Math.max(...created)).toBeLessThanOrEqual(NOW.getTime());
    expect(Math.min(...created)).toBeGreaterThanOrEqual(NOW.getTime() - 401 * DAY_MS);
    const days = new Set(orders.map((o) => new Date(o.created_at).toISOString().slice(0, 10)));
    expect(days.size).toBeGreaterThan(300);
    const paid = orders.filter((o) => o.status === 'paid');
    expect(paid.every((o) => o.paid_at !== null && new Date(o.paid_at).getTime() <= NOW.getTime())).toBe(
      true,
    );
    expect(orders.filter((o) => o.status !== 'paid').every((o) => o.paid_at === null)).toBe(true);
    expect(paid.length / orders.length).toBeGreaterThan(0.8);
    expect(new Set(paid.map((o) => o.currency))).toEqual(new Set(['pkr', 'usd']));
    expect(new Set(paid.map((o) => o.payment_method))).toEqual(
      new Set(['card', 'cash_on_delivery', 'bank_transfer']),
    );
    const refunded = await db.selectFrom('refunds').select('order_id').distinct().execute();
    expect(refunded.length / paid.length).toBeGreaterThan(0.04);
    expect(refunded.length / paid.length).toBeLessThan(0.1);
    const returns = await db.selectFrom('returns').select('id').execute();
    expect(returns.length).toBe(made.returns);
    expect(returns.length / paid.length).toBeGreaterThan(0.015);
    expect(returns.length / paid.length).toBeLessThan(0.045);
    const lineCounts = await db
      .selectFrom('order_lines')
      .select(['order_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('order_id')
      .execute();
    expect(new Set(lineCounts.map((l) => Number(l.n)))).toEqual(new Set([1, 2, 3, 4]));
    const vitals = await db.selectFrom('web_vitals').select(['metric']).execute();
    expect(vitals).toHaveLength(2_000);
    expect(new Set(vitals.map((v) => v.metric)).size).toBe(5);
    const errors = await db.selectFrom('logs').select('repeat_count').where('level', '=', 'error').execute();
    expect(errors.length).toBeGreaterThan(50);
    expect(errors.some((e) => e.repeat_count > 1)).toBe(true);
  });

  it('writes orders that add up, of the catalogue products in their own sizes and colours', async () => {
    const db = store.handle.db;
    const orders = await db.selectFrom('orders').selectAll().execute();
    const lines = await db.selectFrom('order_lines').selectAll().execute();
    const refunds = await db.selectFrom('refunds').selectAll().execute();
    const products = new Map(
      (await db.selectFrom('products').select(['id', 'sizes', 'colors']).execute()).map((p) => [p.id, p]),
    );
    const linesOf = new Map<string, typeof lines>();
    for (const l of lines) linesOf.set(l.order_id, [...(linesOf.get(l.order_id) ?? []), l]);
    let withCode = 0;
    let onSale = 0;
    for (const o of orders) {
      const own = linesOf.get(o.id) ?? [];
      const subtotal = own.reduce((s, l) => s + Number(l.unit_price_minor) * l.quantity, 0);
      const codeOff = own.reduce((s, l) => s + Number(l.discount_minor), 0);
      const shipping = o.currency === 'pkr' ? 25_000 : 1_500;
      expect(Number(o.subtotal_minor)).toBe(subtotal);
      expect(Number(o.discount_minor)).toBe(codeOff);
      expect(Number(o.total_minor)).toBe(subtotal - codeOff + shipping + Number(o.method_fee_minor));
      const back = refunds
        .filter((r) => r.order_id === o.id && r.status !== 'failed')
        .reduce((s, r) => s + Number(r.amount_minor), 0);
      expect(Number(o.refunded_minor)).toBe(back);
      if (o.discount_code) withCode++;
      for (const l of own) {
        expect(l.refunded_quantity).toBeLessThanOrEqual(l.quantity);
        const product = products.get(l.product_id);
        expect(product).toBeDefined();
        if (l.size !== null) expect(String(product?.sizes)).toContain(`"${l.size}"`);
        if (l.colour !== null) expect(String(product?.colors)).toContain(`"${l.colour}"`);
        if (l.sale_id) onSale++;
      }
    }
    expect(withCode).toBeGreaterThan(150);
    expect(onSale).toBeGreaterThan(300);
  });

  it('gives the orders CSV exactly the paid orders, with their totals', async () => {
    const db = store.handle.db;
    const range = { from: new Date(NOW.getTime() - 401 * DAY_MS).toISOString(), to: NOW.toISOString() };
    const totals = new Map<string, { currency: string; total: number }>();
    let header: string[] | null = null;
    for await (const chunk of orderCsvRows(db, range)) {
      const fields = csvFields(chunk.replace(/\r\n$/, ''));
      if (!header) {
        header = fields;
        continue;
      }
      const at = (name: string) => fields[(header as string[]).indexOf(name)] as string;
      totals.set(at('order_id'), {
        currency: at('currency'),
        total: Math.round(Number(at('order_total')) * 100),
      });
    }
    const paid = await db
      .selectFrom('orders')
      .select(['id', 'currency', 'total_minor'])
      .where('status', '=', 'paid')
      .execute();
    expect(totals.size).toBe(paid.length);
    expect(made.paid).toBe(paid.length);
    for (const o of paid)
      expect(totals.get(o.id)).toEqual({ currency: o.currency.toUpperCase(), total: Number(o.total_minor) });
  });
});
