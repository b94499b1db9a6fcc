import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { insertProducts } from '../test-support/fixtures.js';
import { type DatabaseHandle, databaseFile, openDatabase } from './connect.js';
import { migrateToLatest } from './migrate.js';
import { currentRevision, revisionReader, STOREFRONT_REVISION_KEY } from './store-revision.js';

/** Migration 0014 renames the storefront revision's key and keeps its value, so caches stay valid. */
const BEFORE = '2026-11-22T0013-admin-sessions';

describe('migration 0014 (the storefront revision key)', () => {
  let dir: string;
  let handle: DatabaseHandle;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'store-revision-'));
    handle = openDatabase(databaseFile(dir));
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    await insertProducts(handle.db, [{ id: 'a', title: 'Kurta', sku: 'K-1' }]);
  });
  afterEach(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const meta = async () =>
    Object.fromEntries(
      (
        await sql<{ key: string; value: string }>`SELECT key, value FROM app_meta`.execute(handle.db)
      ).rows.map((r) => [r.key, r.value]),
    );

  it('keeps the value under the new key, and every storefront change moves it', async () => {
    const before = (await meta()).catalogue_version;
    expect(Number(before)).toBeGreaterThan(0);
    await migrateToLatest(handle.db);
    const after = await meta();
    expect(after.catalogue_version).toBeUndefined();
    expect(after[STOREFRONT_REVISION_KEY]).toBe(before);
    const read = revisionReader(handle.reader);
    expect(currentRevision(read)).toBe(before);

    let last = Number(before);
    const moved = async (change: () => Promise<unknown>) => {
      await change();
      const now = Number(currentRevision(read));
      expect(now).toBe(last + 1);
      last = now;
    };
    await moved(() => insertProducts(handle.db, [{ id: 'b', title: 'Shirt', sku: 'S-1' }]));
    await moved(() =>
      handle.db.updateTable('products').set({ title: 'Long Shirt' }).where('id', '=', 'b').execute(),
    );
    await moved(() => handle.db.deleteFrom('products').where('id', '=', 'b').execute());
    await moved(() =>
      handle.db.updateTable('settings').set({ tagline: 'New' }).where('id', '=', 1).execute(),
    );
    const triggers = await sql<{ name: string }>`
      SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_version_%'`.execute(handle.db);
    expect(triggers.rows).toEqual([]);
  });

  it('goes back down to the old key with its value', async () => {
    await migrateToLatest(handle.db);
    const value = (await meta())[STOREFRONT_REVISION_KEY];
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    expect(await meta()).toMatchObject({ catalogue_version: value });
    await insertProducts(handle.db, [{ id: 'c', title: 'Coat', sku: 'C-1' }]);
    expect(Number((await meta()).catalogue_version)).toBe(Number(value) + 1);
  });
});
