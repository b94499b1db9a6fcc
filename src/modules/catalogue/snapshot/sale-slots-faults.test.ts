import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failReadsOf } from '../../../test-support/fail-reads.js';
import { insertProducts } from '../../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../../test-support/test-store.js';
import { storefrontRevision } from '../../discounts/sale-timeline.js';
import type { SaleReach } from '../on-sale.js';
import { saleSlots } from './sale-slots.js';
import { snapshotFor } from './snapshot-per-database.js';

/**
 * The sale slots are kept beside the snapshot, promise and all, so concurrent listings share the work. A read
 * that fails (PostgreSQL ending a connection) must not be kept: every later listing of that revision would
 * get the same failure until a write moved the revision on.
 */
describe('sale slots whose read fails', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'kurta', title: 'Lawn Kurta', sizes: '["S","M"]' }]);
  });
  afterAll(() => store.cleanup());

  it('are read again by the next listing', async () => {
    const db = store.handle.db;
    const snap = await snapshotFor(db, await storefrontRevision(db));
    // A fixed amount off: its currency's other products are read from the database.
    const reaches: SaleReach[] = [
      {
        products: ['kurta'],
        tags: [],
        colours: [],
        value: { type: 'fixed', amountMinor: 100, currency: 'EUR' },
      },
    ];
    await expect(
      Promise.resolve(saleSlots(db.withPlugin(failReadsOf(['products'])), snap, reaches)),
    ).rejects.toThrow(/terminating connection/);
    const slots = await saleSlots(db, snap, reaches);
    expect(slots.prices).toBeDefined();
  });
});
