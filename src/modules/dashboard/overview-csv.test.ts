import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardView } from '../../shared/dashboard.js';
import { parseMajorToMinor } from '../../shared/money.js';
import {
  type DashboardOrderSeed,
  insertDashboardOrder,
  insertRefund,
} from '../../test-support/dashboard-orders.js';
import { insertProducts } from '../../test-support/fixtures.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  type TestStore,
} from '../../test-support/test-store.js';

/** A small seeded generator, so a failure names orders that can be made again. */
function seeded(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
    chance: (p: number) => next() < p,
  };
}

/** RFC 4180 as the export writes it: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): Array<Record<string, string>> {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  const [header, ...rows] = records;
  if (!header) throw new Error('no header');
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

const CURRENCIES = ['usd', 'pkr', 'jpy'] as const;
const METHODS = ['card', 'cash_on_delivery', 'bank_transfer'] as const;
const FROM = '2026-10-25';
const TO = '2026-11-20';
const DAY_MS = 86_400_000;

/**
 * THE CSV TEST (issue 44): for generated orders, the overview's revenue, orders and units per currency, in
 * total and day by day, equal the sums over the rows GET /api/admin/orders/export.csv gives for the same
 * days. The export's days are UTC, so the shop's zone is UTC here; another zone moves the overview's days
 * (overview.test.ts, Karachi) and the CSV's would no longer be the same days.
 */
describe('the overview’s figures equal the orders CSV’s for the same days', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let cookie: string;
  beforeAll(async () => {
    store = await createTestStore();
    const db = store.handle.db;
    await db.updateTable('settings').set({ time_zone: 'UTC' }).where('id', '=', 1).execute();
    const titles: Record<string, string> = { p1: 'Kurta, "long"', p2: 'Dupatta', p3: '=Shalwar' };
    await insertProducts(
      db,
      Object.entries(titles).map(([id, title]) => ({ id, title })),
    );
    const rand = seeded(44);
    const windowStart = Date.parse('2026-10-15T00:00:00.000Z');
    const windowMs = Date.parse('2026-11-28T00:00:00.000Z') - windowStart;
    const seeds: DashboardOrderSeed[] = [];
    for (let i = 0; i < 120; i++) {
      const currency = rand.pick(CURRENCIES);
      const method = rand.pick(METHODS);
      const paid = rand.chance(0.8);
      const lines = Array.from({ length: rand.int(1, 3) }, () => {
        const productId = rand.pick(['p1', 'p2', 'p3']);
        const quantity = rand.int(1, 3);
        const unitPriceMinor = rand.int(100, 90_000);
        const discountMinor = rand.chance(0.3) ? rand.int(0, unitPriceMinor) : 0;
        return {
          productId,
          title: titles[productId] ?? productId,
          colour: rand.chance(0.5) ? rand.pick(['Teal', 'Rose, dusty']) : null,
          quantity,
          unitPriceMinor,
          discountMinor,
          regularUnitPriceMinor: rand.chance(0.3) ? unitPriceMinor + rand.int(1, 5000) : null,
        };
      });
      const lineTotal = lines.reduce((s, l) => s + l.unitPriceMinor * l.quantity - l.discountMinor, 0);
      const discountMinor = lines.reduce((s, l) => s + l.discountMinor, 0);
      seeds.push({
        id: `g${i}`,
        number: 100 + i,
        currency,
        method,
        status: paid ? 'paid' : rand.pick(['pending', 'processing', 'payment_failed', 'expired'] as const),
        fulfilment: rand.pick(['unfulfilled', 'shipped', 'delivered', 'cancelled'] as const),
        paidAt: paid ? new Date(windowStart + rand.int(0, windowMs - 1)).toISOString() : null,
        email: rand.chance(0.9) ? `shopper${rand.int(1, 25)}@x.com` : null,
        totalMinor: lineTotal + rand.int(0, 2000),
        subtotalMinor: lineTotal + discountMinor,
        discountMinor,
        discountCode: discountMinor > 0 ? 'EID10' : null,
        salesMinor: lines.reduce(
          (s, l) =>
            s + (l.regularUnitPriceMinor ? (l.regularUnitPriceMinor - l.unitPriceMinor) * l.quantity : 0),
          0,
        ),
        lines,
      });
    }
    // The edges: the first day's first millisecond is in; the day after the last's first is out.
    for (const [id, paidAt] of [
      ['edge-in', `${FROM}T00:00:00.000Z`],
      ['edge-last', `${TO}T23:59:59.999Z`],
      ['edge-out', new Date(Date.parse(`${TO}T00:00:00.000Z`) + DAY_MS).toISOString()],
    ] as const)
      seeds.push({
        id,
        number: 900 + seeds.length,
        currency: 'jpy',
        paidAt,
        totalMinor: 1500,
        lines: [{ productId: 'p2', quantity: 1, unitPriceMinor: 1500 }],
      });
    for (const s of seeds) await insertDashboardOrder(db, s);
    for (const s of seeds.filter((x) => x.paidAt).slice(0, 15))
      await insertRefund(db, {
        id: `rf-${s.id}`,
        orderId: s.id,
        amountMinor: 50,
        currency: s.currency,
        status: 'succeeded',
        at: s.paidAt ?? '',
      });
    await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    app = await buildTestApp(store);
    cookie = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  it('per currency and per day, over the real HTTP routes', async () => {
    const csv = await app.inject({
      url: `/api/admin/orders/export.csv?from=${FROM}&to=${TO}`,
      headers: { cookie },
    });
    expect(csv.statusCode).toBe(200);
    const rows = parseCsv(csv.body);
    expect(rows.length).toBeGreaterThan(50);
    const expected = new Map<string, { revenue: number; orders: Set<string>; units: number }>();
    const byDay = new Map<string, { revenue: number; orders: number }>();
    const counted = new Set<string>();
    for (const r of rows) {
      const currency = (r.currency ?? '').toLowerCase();
      const e = expected.get(currency) ?? { revenue: 0, orders: new Set<string>(), units: 0 };
      expected.set(currency, e);
      e.units += Number(r.quantity);
      if (counted.has(r.order_id ?? '')) continue;
      counted.add(r.order_id ?? '');
      const total = parseMajorToMinor(r.order_total ?? '', currency);
      if (total === null) throw new Error(`unreadable order_total ${r.order_total}`);
      e.revenue += total;
      e.orders.add(r.order_id ?? '');
      const key = `${currency} ${(r.paid_at ?? '').slice(0, 10)}`;
      const d = byDay.get(key) ?? { revenue: 0, orders: 0 };
      byDay.set(key, { revenue: d.revenue + total, orders: d.orders + 1 });
    }
    expect(counted.has('edge-in') && counted.has('edge-last') && !counted.has('edge-out')).toBe(true);

    const input = encodeURIComponent(JSON.stringify({ preset: 'custom', from: FROM, to: TO }));
    const res = await app.inject({
      url: `/api/trpc/admin.dashboard.overview?input=${input}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    const view = (res.json() as { result: { data: DashboardView } }).result.data;
    if (view.role !== 'owner') throw new Error('expected the owner’s view');
    const sold = view.period.current.filter((c) => c.orders > 0);
    expect(sold.map((c) => [c.currency, c.revenueMinor, c.orders, c.units]).sort()).toEqual(
      [...expected].map(([currency, e]) => [currency, e.revenue, e.orders.size, e.units]).sort(),
    );
    expect(sold.map((c) => c.currency).sort()).toEqual([...CURRENCIES].sort());
    for (const c of view.period.current) {
      expect(c.revenueByDay).toHaveLength(27);
      for (const d of c.revenueByDay) {
        const e = byDay.get(`${c.currency} ${d.day}`) ?? { revenue: 0, orders: 0 };
        expect([c.currency, d.day, d.revenueMinor, d.orders]).toEqual([
          c.currency,
          d.day,
          e.revenue,
          e.orders,
        ]);
      }
    }
  });
});
