import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertDashboardOrder } from '../../test-support/dashboard-orders.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { ownerSession } from '../../test-support/orders.js';
import { createTestStore, manualClock, type TestStore } from '../../test-support/test-store.js';

/**
 * New versus returning, per order (decision 0041): an order is new when it is its address's first paid
 * order (or has no email), returning when the address paid an order at an earlier instant, whenever that was.
 */
describe('the overview’s new versus returning: each order against its address’s earlier paid orders', () => {
  let store: TestStore;
  const clock = manualClock('2026-11-29T12:00:00.000Z');
  const customers = async (from: string, to: string) => {
    const view = await store
      .caller({ admin: ownerSession, clock })
      .admin.dashboard.overview({ preset: 'custom', from, to });
    if (view.role !== 'owner') throw new Error('expected the owner’s view');
    return view.period.customers;
  };

  beforeEach(async () => {
    store = await createTestStore();
    const db = store.handle.db;
    await db.updateTable('settings').set({ time_zone: 'UTC' }).where('id', '=', 1).execute();
    await insertProducts(db, [{ id: 'p1', title: 'Lawn kurta' }]);
    const line = [{ productId: 'p1', quantity: 1, unitPriceMinor: 1000 }];
    let n = 0;
    const order = (paidAt: string | null, email: string | null) =>
      insertDashboardOrder(db, {
        id: `o${++n}`,
        number: n,
        currency: 'usd',
        paidAt,
        email,
        totalMinor: 1000,
        lines: line,
      });
    // Long before: a@x.com's first paid order (new); c@x.com only ordered (never paid); one without email.
    await order('2025-06-01T10:00:00.000Z', ' A@x.com');
    await order(null, 'c@x.com');
    await order('2025-06-02T10:00:00.000Z', null);
    // The last 7 days (23–29 November):
    await order('2026-11-23T00:00:00.000Z', 'd@x.com'); // new: d's first, at the period's first instant
    await order('2026-11-24T10:00:00.000Z', 'a@X.COM'); // returning (other case)
    await order('2026-11-25T10:00:00.000Z', 'a@x.com  '); // returning (spaces)
    await order('2026-11-26T10:00:00.000Z', 'c@x.com'); // new: c never paid before
    await order('2026-11-27T10:00:00.000Z', 'D@x.com'); // returning: d paid on the 23rd, in the period
    await order('2026-11-28T10:00:00.000Z', null); // new: no email
    // Two of e@x.com's orders paid in the same millisecond: neither is before the other, both new.
    await order('2026-11-26T12:00:00.000Z', 'e@x.com');
    await order('2026-11-26T12:00:00.000Z', 'E@x.com');
    await order('2026-11-27T12:00:00.000Z', 'e@x.com'); // returning
  });

  afterEach(async () => {
    await store.cleanup();
  });

  it('counts per order over a week, a month, a quarter and a year', async () => {
    const expected: Array<[string, string, { newCustomers: number; returning: number }]> = [
      ['2026-11-23', '2026-11-29', { newCustomers: 5, returning: 4 }],
      ['2026-10-31', '2026-11-29', { newCustomers: 5, returning: 4 }],
      ['2026-08-29', '2026-11-29', { newCustomers: 5, returning: 4 }],
      ['2025-11-29', '2026-11-29', { newCustomers: 5, returning: 4 }],
      // Only the two old orders: both first of their kind.
      ['2025-06-01', '2026-06-01', { newCustomers: 2, returning: 0 }],
      // From the 27th: D@x.com and e@x.com's third are returning, the order without email new.
      ['2026-11-27', '2026-11-29', { newCustomers: 1, returning: 2 }],
    ];
    for (const [from, to, counts] of expected)
      expect(await customers(from, to), `${from}..${to}`).toEqual(counts);
  });
});
