import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock.js';
import { mulberry32 } from '../../core/seeded-random.js';
import type { Db } from '../../db/database.js';
import type { DashboardPeriodInput } from '../../shared/dashboard.js';
import { resolvePeriod } from '../../shared/dashboard-period.js';
import { figuresOfView, oracleFigures } from '../../test-support/dashboard-oracle.js';
import { insertDashboardOrder } from '../../test-support/dashboard-orders.js';
import { oracleSold, soldOfView } from '../../test-support/dashboard-sold-oracle.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { ownerSession } from '../../test-support/orders.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { summaryDisagreements } from './summary-check.js';

const NOW = '2026-11-29T12:00:00.000Z';
const PRODUCTS = ['p1', 'p2', 'p3', 'p4'];
const EMAILS = ['a@x.com', ' A@X.com', 'b@x.com', 'B@x.com  ', 'c@x.com', null];
/** Sizes as lines write them: a shopper's ' m' is M across the catalogue, its own spelling for one product. */
const SIZES = ['S', 'M', ' m', 'L', 'xl'];
/** Instants the days are cut at in the zones tested, and ones just before them. */
const EDGES = [
  '2026-03-01T00:00:00.000Z', // UTC: the first of a month
  '2026-02-28T23:59:59.999Z',
  '2026-06-30T19:00:00.000Z', // Karachi: 1 July starts
  '2026-06-30T18:59:59.999Z',
  '2026-03-08T05:00:00.000Z', // New York: 8 March (its 23-hour day) starts at 05:00 UTC
  '2026-03-09T04:00:00.000Z', // and ends at 04:00 UTC
  '2026-11-01T04:00:00.000Z', // New York: 1 November (25 hours) starts at 04:00 UTC
  '2026-11-01T00:00:00.000Z',
];
const PERIODS: DashboardPeriodInput[] = [
  { preset: 'custom', from: '2025-11-29', to: '2026-11-29' },
  { preset: 'custom', from: '2026-02-15', to: '2026-07-03' },
  { preset: 'custom', from: '2026-03-01', to: '2026-06-30' },
  { preset: '30d' },
  { preset: 'today' },
];

describe('the dashboard’s summaries: always what the orders say', () => {
  let store: TestStore;
  let now = NOW;
  const clock: Clock = { now: () => new Date(now) };
  const owner = () => store.caller({ admin: ownerSession, clock });
  const db = (): Db => store.handle.db;
  const marks = async () =>
    Number((await sql<{ n: unknown }>`SELECT count(*) AS n FROM dashboard_dirty`.execute(db())).rows[0]?.n);

  /**
   * Every period read through the overview and sell-through (the catalogue and two products), held to the
   * figures worked out in JS, and the summary checked.
   */
  async function readAndCheck(step: string, zone: string): Promise<void> {
    for (const input of PERIODS) {
      const view = await owner().admin.dashboard.overview(input);
      if (view.role !== 'owner') throw new Error('expected the owner’s view');
      const { range } = resolvePeriod(input, new Date(NOW), zone);
      expect(figuresOfView(view.period), `${step}: ${JSON.stringify(input)}`).toEqual(
        await oracleFigures(db(), range, zone),
      );
      for (const productId of [null, 'p1', 'p2']) {
        const sold = await oracleSold(db(), range, productId);
        const sizes = await owner().admin.dashboard.sellThrough({
          ...input,
          ...(productId ? { productId } : {}),
          reorderPieces: 10,
        });
        expect(
          soldOfView(sizes, sold),
          `${step}: sold of ${productId ?? 'all'} ${JSON.stringify(input)}`,
        ).toEqual(sold);
      }
    }
    expect(await summaryDisagreements(db()), step).toEqual([]);
    expect(await marks(), `${step}: marks left`).toBe(0);
  }

  beforeEach(async () => {
    store = await createTestStore();
    now = NOW;
    await db().updateTable('settings').set({ time_zone: 'UTC' }).where('id', '=', 1).execute();
    await insertProducts(
      db(),
      PRODUCTS.map((id) => ({ id, title: `Kurta ${id}` })),
    );
  });

  afterEach(async () => {
    await store.cleanup();
  });

  it('agrees with the orders after every kind of write, through SQL and through the app', async () => {
    const next = mulberry32(44);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const instant = () =>
      next() < 0.3
        ? pick(EDGES)
        : new Date(
            Date.parse('2025-10-01T00:00:00.000Z') + Math.floor(next() * 425 * 86_400_000),
          ).toISOString();
    let n = 0;
    const paid: string[] = [];
    const pending: string[] = [];
    const order = async (paidAt: string | null, email = pick(EMAILS)) => {
      const id = `o${++n}`;
      await insertDashboardOrder(db(), {
        id,
        number: n,
        currency: pick(['usd', 'pkr']),
        method:
          paidAt === null ? 'bank_transfer' : pick(['card', 'cash_on_delivery', 'bank_transfer'] as const),
        status: paidAt === null ? 'pending' : 'paid',
        paidAt,
        email,
        totalMinor: 100 + Math.floor(next() * 50_000),
        salesMinor: Math.floor(next() * 3) * 100,
        lines: Array.from({ length: 1 + Math.floor(next() * 3) }, () => ({
          productId: pick(PRODUCTS),
          colour: pick([null, 'Teal', 'Rose']),
          size: pick(SIZES),
          quantity: 1 + Math.floor(next() * 3),
          unitPriceMinor: 100 + Math.floor(next() * 9_000),
        })),
      });
      (paidAt === null ? pending : paid).push(id);
      return id;
    };

    await readAndCheck('empty store', 'UTC');
    for (let i = 0; i < 30; i++) await order(instant());
    await readAndCheck('30 paid orders', 'UTC');

    // A checkout's order and lines, not paid: no mark at all.
    await order(null);
    await order(null);
    expect(await marks()).toBe(0);

    /** A line of a paid order, picked at random (none when no paid order has one). */
    const paidLine = async () =>
      (
        await db()
          .selectFrom('order_lines')
          .select('id')
          .where('order_id', 'in', paid)
          .orderBy('id')
          .limit(1)
          .offset(Math.floor(next() * paid.length))
          .executeTakeFirst()
      )?.id;
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['paid order', () => order(instant())],
      [
        'transfer recorded through the app',
        async () => {
          const id = pending.pop() ?? (await order(null));
          pending.splice(pending.indexOf(id), 1);
          now = instant();
          await owner().admin.orders.recordTransfer({ id, reference: 'HBL-1', receivedOn: now.slice(0, 10) });
          now = NOW;
          paid.push(id);
        },
      ],
      [
        'email changed',
        () =>
          db()
            .updateTable('orders')
            .set({ customer_email: pick(EMAILS) })
            .where('id', '=', pick(paid))
            .execute(),
      ],
      [
        'paid_at moved',
        () => db().updateTable('orders').set({ paid_at: instant() }).where('id', '=', pick(paid)).execute(),
      ],
      [
        'order deleted',
        async () => {
          const id = pick(paid);
          await db().deleteFrom('order_lines').where('order_id', '=', id).execute();
          await db().deleteFrom('orders').where('id', '=', id).execute();
          paid.splice(paid.indexOf(id), 1);
        },
      ],
      [
        'line deleted',
        async () => {
          const line = await db()
            .selectFrom('order_lines')
            .select('id')
            .where('order_id', 'in', paid)
            .orderBy('id')
            .limit(1)
            .offset(Math.floor(next() * paid.length))
            .executeTakeFirst();
          if (line) await db().deleteFrom('order_lines').where('id', '=', line.id).execute();
        },
      ],
      [
        'line added',
        () =>
          db()
            .insertInto('order_lines')
            .values({
              order_id: pick(paid),
              product_id: pick(PRODUCTS),
              title: 'Kurta, renamed',
              colour: 'Teal',
              size: 'M',
              quantity: 2,
              unit_price_minor: 700,
              line_total_minor: 1400,
              discount_minor: 0,
              regular_unit_price_minor: null,
              image_url: null,
              sale_id: null,
              sale_name: null,
            })
            .execute(),
      ],
      [
        'line quantity changed',
        () =>
          db().updateTable('order_lines').set({ quantity: 3 }).where('order_id', '=', pick(paid)).execute(),
      ],
      [
        'units of a line refunded (sold moves, money does not)',
        async () => {
          const line = await paidLine();
          if (line)
            await db()
              .updateTable('order_lines')
              .set((eb) => ({ refunded_quantity: next() < 0.5 ? 1 : eb.ref('quantity') }))
              .where('id', '=', line)
              .execute();
        },
      ],
      [
        'size of a line changed',
        async () => {
          const line = await paidLine();
          if (line)
            await db()
              .updateTable('order_lines')
              .set({ size: pick([...SIZES, null]) })
              .where('id', '=', line)
              .execute();
        },
      ],
      [
        'an earlier order of an address',
        () =>
          order(new Date(Date.parse('2025-09-01T00:00:00.000Z') + Math.floor(next() * 1e9)).toISOString()),
      ],
      [
        'fulfilment only (no figure moves)',
        () =>
          db().updateTable('orders').set({ fulfilment: 'shipped' }).where('id', '=', pick(paid)).execute(),
      ],
    ];
    for (let i = 0; i < 2 * steps.length; i++) {
      const step = steps[i % steps.length];
      if (!step) throw new Error('no step');
      const [name, write] = step;
      await write();
      if (name === 'fulfilment only (no figure moves)') expect(await marks(), name).toBe(0);
      await readAndCheck(`step ${i}: ${name}`, 'UTC');
    }
  }, 120_000);

  it('sums every day again in the shop’s new zone, and the days move', async () => {
    const orders: Array<[string, string]> = [
      ['o1', '2026-06-30T18:59:59.999Z'], // UTC 30 June; Karachi 30 June (23:59); New York 30 June
      ['o2', '2026-06-30T19:00:00.000Z'], // UTC 30 June; Karachi 1 July; New York 30 June
      ['o3', '2026-03-08T04:59:59.999Z'], // UTC 8 March; New York 7 March (23:59 EST)
      ['o4', '2026-03-08T05:00:00.000Z'], // New York 8 March, 00:00 EST
      ['o5', '2026-03-09T03:59:59.999Z'], // New York still 8 March (23:59 EDT): a 23-hour day
      ['o6', '2026-03-09T04:00:00.000Z'], // New York 9 March
    ];
    let n = 0;
    for (const [id, paidAt] of orders)
      await insertDashboardOrder(db(), {
        id,
        number: ++n,
        currency: 'usd',
        paidAt,
        email: 'a@x.com',
        totalMinor: 1000 * n,
        lines: [{ productId: 'p1', quantity: 1, unitPriceMinor: 1000 * n }],
      });
    const days = async (from: string, to: string) => {
      const view = await owner().admin.dashboard.overview({ preset: 'custom', from, to });
      if (view.role !== 'owner') throw new Error('expected the owner’s view');
      return Object.fromEntries(
        (view.period.current[0]?.revenueByDay ?? [])
          .filter((d) => d.revenueMinor > 0)
          .map((d) => [d.day, d.revenueMinor]),
      );
    };
    const zoneIs = async () =>
      (await db().selectFrom('dashboard_state').select('zone').executeTakeFirst())?.zone;

    expect(await days('2026-03-01', '2026-07-31')).toEqual({
      '2026-03-08': 3000 + 4000,
      '2026-03-09': 5000 + 6000,
      '2026-06-30': 1000 + 2000,
    });
    expect(await zoneIs()).toBe('UTC');

    await db().updateTable('settings').set({ time_zone: 'Asia/Karachi' }).where('id', '=', 1).execute();
    expect(await days('2026-03-01', '2026-07-31')).toEqual({
      '2026-03-08': 3000 + 4000,
      '2026-03-09': 5000 + 6000,
      '2026-06-30': 1000,
      '2026-07-01': 2000,
    });
    expect(await zoneIs()).toBe('Asia/Karachi');
    expect(await summaryDisagreements(db())).toEqual([]);

    await db().updateTable('settings').set({ time_zone: 'America/New_York' }).where('id', '=', 1).execute();
    expect(await days('2026-03-01', '2026-07-31')).toEqual({
      '2026-03-07': 3000,
      '2026-03-08': 4000 + 5000,
      '2026-03-09': 6000,
      '2026-06-30': 1000 + 2000,
    });
    expect(await summaryDisagreements(db())).toEqual([]);
    // The months moved too: July holds nothing in New York, so a July-only period has no top product.
    const july = await owner().admin.dashboard.overview({
      preset: 'custom',
      from: '2026-07-01',
      to: '2026-07-31',
    });
    expect(july.role === 'owner' && july.period.topProducts).toEqual([]);
    // A summary row edited by hand is found by the check.
    await db().updateTable('dashboard_days').set({ units: 99 }).where('day', '=', '2026-03-08').execute();
    expect(await summaryDisagreements(db())).toHaveLength(1);
    // So is one of the items' or sizes' rows, of a day or of a month.
    await db()
      .updateTable('dashboard_day_items')
      .set({ units: 99 })
      .where('day', '=', '2026-03-09')
      .execute();
    await db().updateTable('dashboard_day_sizes').set({ sold: 99 }).where('day', '=', '2026-03-07').execute();
    await db().deleteFrom('dashboard_month_sizes').where('month', '=', '2026-06').execute();
    await db()
      .updateTable('dashboard_months')
      .set({ title: 'Edited' })
      .where('month', '=', '2026-03')
      .execute();
    expect((await summaryDisagreements(db())).map((d) => `${d.table} ${d.key}`).sort()).toEqual([
      'dashboard_day_items 2026-03-09 usd p1 ',
      'dashboard_day_sizes 2026-03-07 p1 M',
      'dashboard_days 2026-03-08 usd card',
      'dashboard_month_sizes 2026-06 p1 M',
      'dashboard_months 2026-03 usd p1 ',
    ]);
  });

  it('answers concurrent first reads alike, without an error or a day counted twice', async () => {
    let n = 0;
    for (const paidAt of ['2026-11-20T10:00:00.000Z', '2026-11-21T10:00:00.000Z', '2026-11-28T10:00:00.000Z'])
      await insertDashboardOrder(db(), {
        id: `o${++n}`,
        number: n,
        currency: 'usd',
        paidAt,
        email: 'a@x.com',
        totalMinor: 1000,
        lines: [{ productId: 'p1', quantity: 2, unitPriceMinor: 500 }],
      });
    const fiveAtOnce = () =>
      Promise.all(Array.from({ length: 5 }, () => owner().admin.dashboard.overview({ preset: '30d' })));
    const first = await fiveAtOnce();
    for (const view of first) expect(view).toEqual(first[0]);
    // A write, then five reads at once again: each sees it once.
    await insertDashboardOrder(db(), {
      id: 'o9',
      number: 9,
      currency: 'usd',
      paidAt: '2026-11-28T11:00:00.000Z',
      email: 'A@x.com',
      totalMinor: 2500,
      lines: [{ productId: 'p1', quantity: 1, unitPriceMinor: 2500 }],
    });
    const second = await fiveAtOnce();
    for (const view of second) {
      expect(view).toEqual(second[0]);
      if (view.role !== 'owner') throw new Error('expected the owner’s view');
      expect(view.period.current[0]).toMatchObject({ revenueMinor: 5500, orders: 4, units: 7 });
      expect(view.period.customers).toEqual({ newCustomers: 1, returning: 3 });
    }
    expect(await summaryDisagreements(db())).toEqual([]);
    expect(await marks()).toBe(0);
    // A new zone and nothing marked: five rebuilds asked at once, one done, the others wait for it.
    await db().updateTable('settings').set({ time_zone: 'Asia/Karachi' }).where('id', '=', 1).execute();
    const third = await fiveAtOnce();
    for (const view of third) expect(view).toEqual(third[0]);
    expect(await summaryDisagreements(db())).toEqual([]);
  });
});
