import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoDir } from '../../app-root.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, fixedClock, type TestStore } from '../../test-support/test-store.js';
import { loadDemoCatalogueIfEmpty } from './demo-loader.js';

describe('demo catalogue', () => {
  let store: TestStore;
  afterEach(async () => store.cleanup());

  const load = () =>
    loadDemoCatalogueIfEmpty({ db: store.handle.db, storage: store.storage, demoDir, clock: fixedClock });

  it('fills an empty store with at least 36 products from at least 6 manufacturers, with media files', async () => {
    store = await createTestStore();
    const result = await load();
    expect(result.loaded).toBe(true);
    expect(result.products).toBeGreaterThanOrEqual(36);

    const makers = await store.handle.db.selectFrom('products').select('manufacturer').distinct().execute();
    expect(makers.length).toBeGreaterThanOrEqual(6);

    const media = await store.handle.db.selectFrom('media').select(['url', 'product_id']).execute();
    const withMedia = new Set(media.map((m) => m.product_id));
    expect(withMedia.size).toBe(result.products);
    for (const m of media) expect(existsSync(path.join(store.dir, m.url.replace(/^\//, '')))).toBe(true);

    const settings = await store.caller().site.settings();
    expect(settings.storeName).not.toBe('My Store');
    expect(settings.banner?.active).toBe(true);
    expect(settings.specialOrderUrl).toMatch(/^https:\/\//);
    expect(settings.version?.version).toBe('1.0.0');
    expect(await store.caller().site.randomQuote()).not.toBeNull();
  });

  it('stores prices as exact integer minor units', async () => {
    store = await createTestStore();
    await load();
    const rows = await store.handle.db.selectFrom('products').select(['price_minor', 'currency']).execute();
    for (const r of rows) {
      expect(Number.isSafeInteger(r.price_minor)).toBe(true);
      expect(r.currency).toBe('usd');
    }
  });

  it('is idempotent, and never loads into a store that has products', async () => {
    store = await createTestStore();
    const first = await load();
    const second = await load();
    expect(second.loaded).toBe(false);
    const count = await store.handle.db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(first.products);
    await store.cleanup();

    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'mine' }]);
    expect((await load()).loaded).toBe(false);
    expect((await store.caller().site.settings()).storeName).toBe('My Store');
  });

  it('does not come back after the operator deletes every product', async () => {
    store = await createTestStore();
    await load();
    await store.handle.db.deleteFrom('products').execute();
    expect((await load()).loaded).toBe(false);
    expect((await store.caller().catalogue.search({})).items).toEqual([]);
  });
});
