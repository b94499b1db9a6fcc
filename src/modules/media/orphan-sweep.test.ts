import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, databaseFile, openDatabase } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrate.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { BANNER_GRACE_MS, snapshotUploads, sweepOrphanUploads } from './orphan-sweep.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');

describe('orphan upload sweep', () => {
  let dir: string;
  let handle: DatabaseHandle;
  const file = (key: string, ageMs = 60_000) => {
    const full = path.join(dir, key);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, 'x');
    const at = new Date(NOW.getTime() - ageMs);
    utimesSync(full, at, at);
    return key;
  };
  const present = (key: string) => existsSync(path.join(dir, key));
  const mediaRow = (id: string, storageKey: string | null, variants: string[] = [], url?: string) =>
    handle.db
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
    dir = mkdtempSync(path.join(tmpdir(), 'orphan-sweep-'));
    handle = openDatabase(databaseFile(dir));
    await migrateToLatest(handle.db);
    await insertProducts(handle.db, [{ id: 'p1' }]);
  });
  afterEach(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes upload files no row names and leftover temporary files, and keeps every named file', async () => {
    const owned = file('media/uploads/aaa-1024.webp');
    const ownedVariant = file('media/uploads/aaa-320.webp');
    const byUrl = file('media/uploads/bbb.pdf');
    const orphan = file('media/uploads/ccc-1024.webp');
    const orphanVariant = file('media/uploads/ccc-320.avif');
    const inCatalogue = file('media/uploads/ddd-640.webp');
    const inOrder = file('media/uploads/eee-640.webp');
    const temp = file('media/uploads/fff-640.webp.1234.1700000000000.tmp');
    const catalogueTemp = file('catalogs/catalog-export-x.yaml.1234.1700000000000.tmp');
    const demo = file('media/demo/kurta.svg');
    await mediaRow('m1', owned, [owned, ownedVariant]);
    await mediaRow('m2', null, [], `/${byUrl}`);
    writeFileSync(
      path.join(dir, 'catalogs', 'catalog-export-1.yaml'),
      `products:\n  - media:\n      - upload:\n          storageKey: ${inCatalogue}\n`,
    );
    await handle.db
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
    await handle.db
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

    const snapshot = await snapshotUploads(dir);
    const result = await sweepOrphanUploads({ db: handle.db, snapshot, now: NOW });

    expect(result.removed.sort()).toEqual([orphan, orphanVariant]);
    expect(result.temps).toBe(2);
    for (const key of [owned, ownedVariant, byUrl, inCatalogue, inOrder, demo])
      expect(present(key)).toBe(true);
    for (const key of [orphan, orphanVariant, temp, catalogueTemp]) expect(present(key)).toBe(false);
  });

  it('never touches a file written after the snapshot, even one no row names yet', async () => {
    const snapshot = await snapshotUploads(dir);
    const late = file('media/uploads/ggg-1024.webp', 10 * BANNER_GRACE_MS);
    const result = await sweepOrphanUploads({ db: handle.db, snapshot, now: NOW });
    expect(result.removed).toEqual([]);
    expect(present(late)).toBe(true);
  });

  it('keeps a file whose row committed between the snapshot and the delete', async () => {
    const key = file('media/uploads/hhh-1024.webp');
    const snapshot = await snapshotUploads(dir);
    await mediaRow('m3', key);
    expect((await sweepOrphanUploads({ db: handle.db, snapshot, now: NOW })).removed).toEqual([]);
    expect(present(key)).toBe(true);
  });

  it('gives an unsaved banner picture a day before removing it, and keeps the saved one', async () => {
    const fresh = file('media/uploads/banner-0001.webp', BANNER_GRACE_MS - 60_000);
    const stale = file('media/uploads/banner-0002.webp', BANNER_GRACE_MS + 60_000);
    const saved = file('media/uploads/banner-0003.webp', BANNER_GRACE_MS + 60_000);
    await handle.db
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
    const result = await sweepOrphanUploads({
      db: handle.db,
      snapshot: await snapshotUploads(dir),
      now: NOW,
    });
    expect(result.removed).toEqual([stale]);
    expect(present(fresh)).toBe(true);
    expect(present(saved)).toBe(true);
  });

  it('does nothing without an uploads folder, and stops when aborted', async () => {
    expect(await snapshotUploads(dir)).toEqual({ root: dir, uploads: [], temps: [] });
    file('media/uploads/iii-1024.webp');
    const controller = new AbortController();
    controller.abort();
    const result = await sweepOrphanUploads({
      db: handle.db,
      snapshot: await snapshotUploads(dir),
      now: NOW,
      signal: controller.signal,
    });
    expect(result.removed).toEqual([]);
  });
});
