import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PeriodRange } from '../../shared/dashboard.js';
import { insertDashboardOrder } from '../../test-support/dashboard-orders.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { newVersusReturning, SHORT_PERIOD_MAX_DAYS } from './period-breakdowns.js';

/** A UTC period of `days` days ending on 29 November 2026. */
function period(days: number): PeriodRange {
  const endsAt = Date.parse('2026-11-30T00:00:00.000Z');
  const startsAt = endsAt - days * 86_400_000;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    from: iso(startsAt).slice(0, 10),
    to: '2026-11-29',
    startsAt: iso(startsAt),
    endsAt: iso(endsAt),
    days,
  };
}

describe('newVersusReturning: the per-order look-up and the earlier-address set agree', () => {
  let store: TestStore;

  beforeEach(async () => {
    store = await createTestStore();
    const db = store.handle.db;
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
    // Before every period tested: a@x.com paid; c@x.com only ordered (never paid); an order without email.
    await order('2025-06-01T10:00:00.000Z', ' A@x.com');
    await order(null, 'c@x.com');
    await order('2025-06-02T10:00:00.000Z', null);
    // d@x.com paid in the very millisecond the 7-day period starts: in it, so not earlier.
    await order('2026-11-23T00:00:00.000Z', 'd@x.com');
    // In the last 7 days: a@x.com twice in other cases and spacing (returning), c@x.com (new: it never
    // paid before), D@x.com (new: its first order is at the start, not before it), one without email (new).
    await order('2026-11-24T10:00:00.000Z', 'a@X.COM');
    await order('2026-11-25T10:00:00.000Z', 'a@x.com  ');
    await order('2026-11-26T10:00:00.000Z', 'c@x.com');
    await order('2026-11-27T10:00:00.000Z', 'D@x.com');
    await order('2026-11-28T10:00:00.000Z', null);
  });

  afterEach(async () => {
    await store.cleanup();
  });

  it('counts the same on a short period, a long one and one that holds every order', async () => {
    const db = store.handle.db;
    const expected = new Map([
      [7, { newCustomers: 4, returning: 2 }],
      [30, { newCustomers: 4, returning: 2 }],
      [SHORT_PERIOD_MAX_DAYS + 1, { newCustomers: 4, returning: 2 }],
      [366, { newCustomers: 4, returning: 2 }],
      // Every paid order in the period, so nothing is earlier: all new.
      [600, { newCustomers: 8, returning: 0 }],
    ]);
    for (const [days, counts] of expected) {
      const range = period(days);
      expect(await newVersusReturning(db, range, 'exists'), `${days} days, exists`).toEqual(counts);
      expect(await newVersusReturning(db, range, 'earlier-set'), `${days} days, set`).toEqual(counts);
      expect(await newVersusReturning(db, range), `${days} days, auto`).toEqual(counts);
    }
  });
});
