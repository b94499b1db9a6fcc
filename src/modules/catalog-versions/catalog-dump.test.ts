import type { KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countingTicks } from '../../test-support/event-loop-ticks.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { dumpCatalogOffThread } from './catalog-dump.js';
import { buildCatalogFile, type CatalogFileMetadata, type CatalogProduct } from './catalog-file.js';
import {
  CATALOGUE_CHUNK_ROWS,
  catalogProducts,
  DELETE_CHUNK_ROWS,
  exportCatalog,
  importCatalog,
} from './catalog-versions.service.js';

function product(i: number): CatalogProduct {
  return {
    id: `big_${i}`,
    title: `Big ${i} "quoted": ünïcode`,
    description: i % 3 === 0 ? 'Line one\nLine two' : 'Generated',
    manufacturer: 'Maker',
    manufacturerUrl: '',
    sku: `BIG-${i}`,
    price: '10.00',
    currency: 'usd',
    pageOrder: i % 7,
    sizes: ['S', 'M'],
    sizeDetail: { S: { '32': 'a', chest: '40' } },
    colors: ['red'],
    tags: ['a', 'b'],
    imageFolder: '',
    images: [],
    stripePaymentLink: '',
    productLink: '',
    media: [
      {
        url: `https://img.example.com/${i}.jpg`,
        fileName: `${i}.jpg`,
        type: 'image',
        altText: null,
        order: 0,
      },
    ],
  };
}

const metadata: CatalogFileMetadata = {
  format: 'storefront-catalog/1',
  exported_at: '2026-11-22T10:00:00.000Z',
  total_products: 0,
  store_version: '1.0.0',
  label: 'Backup',
  tags: ['automatic-backup'],
};

/** A catalogue file of `count` products in the storefront format. */
function catalogueFile(count: number, prefix: string): string {
  const lines = Array.from(
    { length: count },
    (_, i) =>
      `  - { id: ${prefix}_${i}, sku: ${prefix.toUpperCase()}-${i}, title: ${prefix} ${i}, description: Generated, price: '10.00', currency: usd, pageOrder: ${i % 5}, media: [{ url: 'https://img.example.com/${i}.jpg', fileName: '${i}.jpg' }, { url: 'https://img.example.com/${i}b.jpg', fileName: '${i}b.jpg' }] }`,
  );
  return `metadata: { format: storefront-catalog/1 }\nproducts:\n${lines.join('\n')}\n`;
}

describe('writing a catalogue file off the main thread', () => {
  it('keeps the event loop turning while a big catalogue is dumped, with the inline bytes and checksum', async () => {
    const products = Array.from({ length: 25_000 }, (_, i) => product(i));
    const meta = { ...metadata, total_products: products.length };
    const { result, ticks } = await countingTicks(() => dumpCatalogOffThread(meta, products));
    // Inline, the checksum and YAML dump are one synchronous stretch: no setImmediate runs meanwhile.
    expect(ticks).toBeGreaterThan(100);
    const inline = buildCatalogFile(meta, products);
    expect(result.checksum).toBe(inline.checksum);
    expect(result.content.equals(Buffer.from(inline.text, 'utf8'))).toBe(true);
  }, 60_000);

  it('writes small catalogues inline with the same builder', async () => {
    const products = [product(1), product(2)];
    const { result, ticks } = await countingTicks(() => dumpCatalogOffThread(metadata, products));
    expect(ticks).toBe(0);
    expect(result.content.toString('utf8')).toBe(buildCatalogFile(metadata, products).text);
  });
});

describe('whole-catalogue passes in chunks', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
  });
  afterEach(async () => store.cleanup());

  it('exports a big catalogue through the worker with the inline file, and replaces it in chunked deletes', async () => {
    const count = Math.round(CATALOGUE_CHUNK_ROWS * 2.5);
    const deps = { db: store.handle.db, storage: store.storage, clock: store.context().clock };
    const seeded = await importCatalog(deps, catalogueFile(count, 'old'), 'add');
    expect(seeded.invalid.slice(0, 2)).toEqual([]);
    const before = await catalogProducts(store.handle.db);
    expect(before).toHaveLength(count);
    // Keyset chunks keep the page order, then id, order of a single query.
    const sorted = [...before].sort(
      (a, b) => a.pageOrder - b.pageOrder || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    expect(before.map((p) => p.id)).toEqual(sorted.map((p) => p.id));
    expect(before.every((p) => p.media.length === 2)).toBe(true);

    const version = await exportCatalog(deps, { label: 'Big', tags: ['x'] });
    const stored = await store.storage.read(`catalogs/${version.fileName}`);
    const inline = buildCatalogFile(
      {
        format: 'storefront-catalog/1',
        exported_at: version.createdAt,
        total_products: count,
        store_version: /store_version: (.*)\n/.exec(stored.toString('utf8'))?.[1] ?? '',
        label: 'Big',
        tags: ['x'],
      },
      before,
    );
    expect(stored.toString('utf8')).toBe(inline.text);
    expect(version).toMatchObject({
      checksum: inline.checksum,
      byteSize: stored.byteLength,
      productCount: count,
    });

    // Overwrite: every DELETE removes at most one chunk of products, so the driver can yield between them.
    let deletes = 0;
    const counting: KyselyPlugin = {
      transformQuery(args) {
        if (args.node.kind === 'DeleteQueryNode') deletes += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const result = await importCatalog(
      { ...deps, db: store.handle.db.withPlugin(counting) },
      catalogueFile(count, 'new'),
      'overwrite',
    );
    expect(result).toMatchObject({ added: count, invalidCount: 0 });
    expect(result.backupVersionId).not.toBeNull();
    expect(deletes).toBeGreaterThanOrEqual(Math.ceil(count / DELETE_CHUNK_ROWS));
    const after = await catalogProducts(store.handle.db);
    expect(after).toHaveLength(count);
    expect(after.every((p) => p.id.startsWith('new_') && p.media.length === 2)).toBe(true);
    const mediaRows = await store.handle.db.selectFrom('media').select('product_id').execute();
    expect(mediaRows).toHaveLength(count * 2);
  }, 120_000);
});
