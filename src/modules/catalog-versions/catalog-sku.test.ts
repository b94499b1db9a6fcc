import yaml from 'js-yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertProducts } from '../../test-support/fixtures.js';
import { racingDatabase } from '../../test-support/rival-writer.js';
import { createTestStore, SESSION_FACTS, type TestStore } from '../../test-support/test-store.js';
import { CatalogFileError } from './catalog-file.js';
import { catalogProducts, importCatalog } from './catalog-versions.service.js';

/** Catalogue files (import in both modes, publishing a version) against the one-product-per-SKU rule. */

const admin = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: '2026-11-22T10:00:00.000Z',
  role: 'owner' as const,
  ...SESSION_FACTS,
};

const item = (id: string, sku: string, title = `Title ${id}`) =>
  `  - { id: ${id}, title: '${title}', description: d, price: '1.00', currency: usd, sku: '${sku}' }`;
const file = (...items: string[]) => `products:\n${items.join('\n')}\n`;

describe('catalogue files and duplicate SKUs', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'live_1', title: 'Live Kurta', sku: 'LIVE-1' }]);
  });
  afterEach(async () => store.cleanup());

  const deps = (db = store.handle.db) => ({ db, storage: store.storage, clock: store.context().clock });
  const ids = async () => (await catalogProducts(store.handle.db)).map((p) => p.id).sort();

  it('add mode: a SKU repeated in the file or used by the live catalogue makes that product invalid, with why', async () => {
    const result = await importCatalog(
      deps(),
      file(
        item('new_1', 'N-1', 'First'),
        item('new_2', 'n-1'),
        item('new_3', 'live-1'),
        item('live_1', 'LIVE-1'),
        item('new_4', 'N-4'),
      ),
      'add',
    );
    expect(result).toMatchObject({ total: 5, added: 2, skippedCount: 1, invalidCount: 2 });
    expect(result.invalid).toEqual([
      { position: 2, id: 'new_2', reason: 'SKU "n-1" is already used by "First" (#1, earlier in the file)' },
      { position: 3, id: 'new_3', reason: 'SKU "live-1" is already used by "Live Kurta"' },
    ]);
    expect(result.message).toBe(
      'Catalog imported successfully: 2 of 5 products added; 1 skipped (already exist); 2 invalid',
    );
    expect(await ids()).toEqual(['live_1', 'new_1', 'new_4']);
  });

  it('overwrite mode: refuses a file that repeats a SKU and changes nothing; live SKUs it replaces are no clash', async () => {
    await expect(
      importCatalog(deps(), file(item('new_1', 'N-1', 'First'), item('new_2', 'N-1')), 'overwrite'),
    ).rejects.toThrow(/#2 \(new_2\): SKU "N-1" is already used by "First" \(#1, earlier in the file\)/);
    expect(await ids()).toEqual(['live_1']);

    const over = await importCatalog(deps(), file(item('new_1', 'LIVE-1')), 'overwrite');
    expect(over).toMatchObject({ added: 1, invalidCount: 0 });
    expect(await ids()).toEqual(['new_1']);
  });

  it('publishing a version that repeats a SKU is refused with the reason, and the live catalogue stays', async () => {
    const caller = store.caller({ admin });
    await insertProducts(store.handle.db, [{ id: 'live_2', title: 'Second Kurta', sku: 'LIVE-2' }]);
    const version = await caller.admin.catalog.export({ label: 'v1' });
    // A file edited by hand (or exported before SKUs were unique) that gives both products one SKU.
    const key = `catalogs/${version.fileName}`;
    const doc = yaml.load((await store.storage.read(key)).toString('utf8')) as {
      products: Array<{ sku: string }>;
    };
    for (const p of doc.products) p.sku = 'SAME-1';
    await store.storage.put(key, Buffer.from(yaml.dump(doc)));

    await expect(caller.admin.catalog.setActive({ id: version.id })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining(
        'SKU "SAME-1" is already used by "Live Kurta" (#1, earlier in the file)',
      ),
    });
    expect(await ids()).toEqual(['live_1', 'live_2']);
    expect((await caller.admin.catalog.versions()).some((v) => v.isActive)).toBe(false);
  });

  it('a SKU taken by a concurrent writer during an add import is a clear refusal (400), not a 500', async () => {
    const rival = await racingDatabase(store, { id: 'rival', title: 'Rival Kurta', sku: 'RACE-1' });
    const refusal = await importCatalog(
      deps(rival.db),
      file(item('new_1', 'N-1'), item('new_2', 'race-1')),
      'add',
    ).catch((e: unknown) => e);
    // A CatalogFileError is what the import route answers with 400 and its message.
    expect(refusal).toBeInstanceOf(CatalogFileError);
    expect((refusal as Error).message).toBe(
      '#2 (new_2): SKU "race-1" is already used by "Rival Kurta". Nothing was changed.',
    );
    await rival.disarm();
    expect(await ids()).toEqual(['live_1']);
  });
});
