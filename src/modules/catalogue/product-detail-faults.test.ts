import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failReadsOf } from '../../test-support/fail-reads.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { findProductDetail } from './catalogue.repository.js';

/**
 * A product page whose reads fail part-way (PostgreSQL ending the store's connections under load): the read
 * fails as a whole and leaves no rejection without a handler, which would end the process.
 */
describe('a product page read the database fails part-way', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'kurta', title: 'Lawn Kurta', sizes: '["S","M"]' }]);
  });
  afterAll(() => store.cleanup());

  it('rejects, with every failed query handled', async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      const db = store.handle.db.withPlugin(failReadsOf(['size_stock', 'app_meta']));
      await expect(findProductDetail(db, 'kurta')).rejects.toThrow(/terminating connection/);
      // Node reports a rejection left without a handler after the microtasks of its turn have run.
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('unhandledRejection', note);
    }
    expect(unhandled).toEqual([]);
  });
});
