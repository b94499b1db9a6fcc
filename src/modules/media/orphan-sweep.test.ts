import { utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import type { FileStorage } from '../../storage/file-storage.js';
import { LocalFileStorage } from '../../storage/local-file-storage.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { startS3Server, type TestS3Server } from '../../test-support/s3.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { BANNER_GRACE_MS, SHARED_GRACE_MS, snapshotUploads, sweepOrphanUploads } from './orphan-sweep.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');

/** A storage for the sweep, and a way to say when a file in it was written. */
type Files = { storage: FileStorage; setWrittenAt(key: string, at: Date): void | Promise<void> };

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});

const storages: { name: string; open(store: TestStore): Promise<Files> }[] = [
  {
    name: 'local folder',
    async open(store) {
      return {
        storage: new LocalFileStorage(store.dir),
        setWrittenAt: (key, at) => utimesSync(path.join(store.dir, key), at, at),
      };
    },
  },
  {
    name: 'S3 bucket',
    async open() {
      const bucket = await s3.bucket();
      return {
        storage: bucket.storage,
        setWrittenAt: (key, at) => s3.setWrittenAt(bucket.name, key, at),
      };
    },
  },
];

describe.each(storages)('orphan upload sweep on a $name', (kind) => {
  let store: TestStore;
  let db: Db;
  let files: Files;
  let storage: FileStorage;
  /** The sweep's clock: SHARED_GRACE_MS is the least age a file of a shared storage must have. */
  let now: Date;
  const file = async (key: string, ageMs = 60_000) => {
    await storage.put(key, Buffer.from('x'));
    await files.setWrittenAt(key, new Date(NOW.getTime() - ageMs));
    return key;
  };
  const present = (key: string) => storage.exists(key);
  const mediaRow = (id: string, storageKey: string | null, variants: string[] = [], url?: string) =>
    db
      .insertInto('media')
      .values({
        id,
        product_id: 'p1',
        url: url ?? (storageKey ? `/${storageKey}` : 'https://img.example.com/a.jpg'),
        file_name: 'a.jpg',
        media_type: 'image',
        display_order: 0,
        alt_text: null,
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
        storage_key: storageKey,
        variants: JSON.stringify(
          variants.map((k) => ({ url: `/${k}`, width: 320, format: 'webp', storageKey: k })),
        ),
      })
      .execute();

  beforeEach(async () => {
    store = await createTestStore();
    db = store.handle.db;
    files = await kind.open(store);
    storage = files.storage;
    now = storage.shared ? new Date(NOW.getTime() + SHARED_GRACE_MS) : NOW;
    await insertProducts(db, [{ id: 'p1' }]);
  });
  afterEach(async () => {
    await store.cleanup();
  });

  it('removes upload files no row names and leftover temporary files, and keeps every named file', async () => {
    const owned = await file('media/uploads/aaa-1024.webp');
    const ownedVariant = await file('media/uploads/aaa-320.webp');
    const byUrl = await file('media/uploads/bbb.pdf');
    const orphan = await file('media/uploads/ccc-1024.webp');
    const orphanVariant = await file('media/uploads/ccc-320.avif');
    const inCatalogue = await file('media/uploads/ddd-640.webp');
    const inOrder = await file('media/uploads/eee-640.webp');
    const temp = await file('media/uploads/fff-640.webp.1234.1700000000000.tmp');
    const catalogueTemp = await file('catalogs/catalog-export-x.yaml.1234.1700000000000.tmp');
    const demo = await file('media/demo/kurta.svg');
    await mediaRow('m1', owned, [owned, ownedVariant]);
    await mediaRow('m2', null, [], `/${byUrl}`);
    await storage.put(
      'catalogs/catalog-export-1.yaml',
      Buffer.from(`products:\n  - media:\n      - upload:\n          storageKey: ${inCatalogue}\n`),
    );
    await db
      .insertInto('orders')
      .values({
        id: 'o1',
        number: 1,
        status: 'paid',
        payment_mode: 'demo',
        currency: 'usd',
        subtotal_minor: 100,
        total_minor: 100,
        customer_email: null,
        customer_name: null,
        shipping_address: null,
        billing_address: null,
        stripe_session_id: 'demo_1',
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
        paid_at: NOW.toISOString(),
      })
      .execute();
    await db
      .insertInto('order_lines')
      .values({
        order_id: 'o1',
        product_id: 'p1',
        title: 'T',
        size: null,
        quantity: 1,
        unit_price_minor: 100,
        line_total_minor: 100,
        image_url: `/${inOrder}`,
      })
      .execute();

    const snapshot = await snapshotUploads(storage);
    const result = await sweepOrphanUploads({ db, snapshot, now });

    expect(result.removed.sort()).toEqual([orphan, orphanVariant]);
    expect(result.temps).toBe(2);
    for (const key of [owned, ownedVariant, byUrl, inCatalogue, inOrder, demo])
      expect(await present(key), key).toBe(true);
    for (const key of [orphan, orphanVariant, temp, catalogueTemp])
      expect(await present(key), key).toBe(false);
  });

  it('never touches a file written after the snapshot, even one no row names yet', async () => {
    const snapshot = await snapshotUploads(storage);
    const late = await file('media/uploads/ggg-1024.webp', 10 * BANNER_GRACE_MS);
    const result = await sweepOrphanUploads({ db, snapshot, now });
    expect(result.removed).toEqual([]);
    expect(await present(late)).toBe(true);
  });

  it('keeps a file whose row committed between the snapshot and the delete', async () => {
    const key = await file('media/uploads/hhh-1024.webp');
    const snapshot = await snapshotUploads(storage);
    await mediaRow('m3', key);
    expect((await sweepOrphanUploads({ db, snapshot, now })).removed).toEqual([]);
    expect(await present(key)).toBe(true);
  });

  it('gives an unsaved banner picture a day before removing it, and keeps the saved one', async () => {
    const fresh = await file('media/uploads/banner-0001.webp', BANNER_GRACE_MS - 60_000);
    const stale = await file('media/uploads/banner-0002.webp', BANNER_GRACE_MS + 60_000);
    const saved = await file('media/uploads/banner-0003.webp', BANNER_GRACE_MS + 60_000);
    await db
      .insertInto('settings')
      .values({
        id: 1,
        store_name: 'S',
        tagline: '',
        about_text: '',
        disclaimer: '',
        credits: '[]',
        special_order_url: null,
        contact_url: null,
        banner_title: null,
        banner_description: null,
        banner_image_url: `/${saved}`,
        banner_active: 1,
        updated_at: NOW.toISOString(),
      })
      .onConflict((oc) => oc.column('id').doUpdateSet({ banner_image_url: `/${saved}` }))
      .execute();
    // Every file here is older than the shared-storage hour: the banner's own day decides.
    const result = await sweepOrphanUploads({ db, snapshot: await snapshotUploads(storage), now: NOW });
    expect(result.removed).toEqual([stale]);
    expect(await present(fresh)).toBe(true);
    expect(await present(saved)).toBe(true);
  });

  it('does nothing without an uploads folder, and stops when aborted', async () => {
    expect(await snapshotUploads(storage)).toMatchObject({ uploads: [], temps: [] });
    await file('media/uploads/iii-1024.webp');
    const controller = new AbortController();
    controller.abort();
    const result = await sweepOrphanUploads({
      db,
      snapshot: await snapshotUploads(storage),
      now,
      signal: controller.signal,
    });
    expect(result.removed).toEqual([]);
  });

  it('looks only at files directly in the uploads folder', async () => {
    const nested = await file('media/uploads/deeper/jjj-1024.webp');
    const result = await sweepOrphanUploads({ db, snapshot: await snapshotUploads(storage), now });
    expect(result.removed).toEqual([]);
    expect(await present(nested)).toBe(true);
  });
});

describe('orphan upload sweep on storage shared by several processes', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'p1' }]);
  });
  afterEach(async () => {
    await store.cleanup();
  });

  it('leaves files younger than an hour alone: another process may be uploading them right now', async () => {
    const { name, storage } = await s3.bucket();
    for (const [key, ageMs] of [
      ['media/uploads/young-1024.webp', SHARED_GRACE_MS - 60_000],
      ['media/uploads/old-1024.webp', SHARED_GRACE_MS + 60_000],
      ['media/uploads/young.webp.1.2.tmp', SHARED_GRACE_MS - 60_000],
    ] as const) {
      await storage.put(key, Buffer.from('x'));
      await s3.setWrittenAt(name, key, new Date(NOW.getTime() - ageMs));
    }
    const result = await sweepOrphanUploads({
      db: store.handle.db,
      snapshot: await snapshotUploads(storage),
      now: NOW,
    });
    expect(result.removed).toEqual(['media/uploads/old-1024.webp']);
    expect(result.temps).toBe(0);
    expect(await storage.exists('media/uploads/young-1024.webp')).toBe(true);
    expect(await storage.exists('media/uploads/young.webp.1.2.tmp')).toBe(true);
  });
});
