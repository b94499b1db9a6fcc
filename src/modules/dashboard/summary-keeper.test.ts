import { sql } from 'kysely';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertDashboardOrder } from '../../test-support/dashboard-orders.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { ownerSession } from '../../test-support/orders.js';
import { createTestStore, manualClock, type TestStore } from '../../test-support/test-store.js';
import { summaryDisagreements } from './summary-check.js';
import { startSummaryKeeper } from './summary-keeper.js';

const NOW = '2026-11-29T12:00:00.000Z';

async function marks(store: TestStore): Promise<number> {
  const { rows } = await sql<{ n: unknown }>`SELECT count(*) AS n FROM dashboard_dirty`.execute(
    store.handle.db,
  );
  return Number(rows[0]?.n);
}

/** Waits until the keeper has summed every mark (or gives up after 5 s). */
async function untilNoMarks(store: TestStore): Promise<void> {
  for (let waited = 0; waited < 5_000 && (await marks(store)) > 0; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the summaries kept in the background', () => {
  let store: TestStore;
  let stop: (() => void) | null = null;
  const clock = manualClock(NOW);

  beforeEach(async () => {
    store = await createTestStore();
    const db = store.handle.db;
    await db.updateTable('settings').set({ time_zone: 'Asia/Karachi' }).where('id', '=', 1).execute();
    await insertProducts(db, [{ id: 'p1', title: 'Lawn kurta' }]);
  });
  afterEach(async () => {
    stop?.();
    stop = null;
    await store.cleanup();
  });

  const paid = (id: string, number: number, paidAt: string) =>
    insertDashboardOrder(store.handle.db, {
      id,
      number,
      currency: 'usd',
      paidAt,
      fulfilment: 'unfulfilled',
      email: `${id}@x.com`,
      totalMinor: 5000,
      lines: [{ productId: 'p1', quantity: 1, unitPriceMinor: 5000 }],
    });

  it('sums a payment’s day soon after it, so the owner’s next read finds nothing left to sum', async () => {
    await paid('o1', 1, '2026-11-28T10:00:00.000Z');
    // The owner's first read sums the whole store in the shop's zone.
    const overview = () =>
      store.caller({ admin: ownerSession, clock }).admin.dashboard.overview({ preset: '7d' });
    await overview();
    expect(await marks(store)).toBe(0);

    await paid('o2', 2, '2026-11-29T11:00:00.000Z');
    expect(await marks(store)).toBeGreaterThan(0);
    stop = startSummaryKeeper({ db: store.handle.db, log: pino({ level: 'silent' }) }, 20);
    await untilNoMarks(store);
    expect(await marks(store)).toBe(0);
    expect(await summaryDisagreements(store.handle.db)).toEqual([]);
    const view = await overview();
    if (view.role !== 'owner') throw new Error('expected the owner’s view');
    expect(view.period.current.find((c) => c.currency === 'usd')?.orders).toBe(2);
  });

  it('leaves a store never summed (or summed in another zone) to the owner’s read: no whole-store sum in the background', async () => {
    await paid('o1', 1, '2026-11-28T10:00:00.000Z');
    stop = startSummaryKeeper({ db: store.handle.db, log: pino({ level: 'silent' }) }, 20);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await marks(store)).toBeGreaterThan(0);
    const { rows } = await sql<{ zone: string | null }>`SELECT zone FROM dashboard_state`.execute(
      store.handle.db,
    );
    expect(rows[0]?.zone ?? null).toBeNull();
  });
});
