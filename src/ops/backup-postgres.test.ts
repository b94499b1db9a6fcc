import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { openPostgresStore } from '../db/store-database.js';
import { insertAdmin } from '../modules/auth/admins.repository.js';
import { insertPendingOrder } from '../modules/orders/orders.repository.js';
import { readStoredSettings, updateSettings } from '../modules/settings/settings.repository.js';
import { insertProducts } from '../test-support/fixtures.js';
import { createThrowawayDatabase } from '../test-support/postgres.js';
import { createPostgresOpsStore, type PostgresOpsStore } from '../test-support/postgres-ops-store.js';
import { BackupError, createBackup } from './backup.js';
import { DataDirBusyError, lockDataDirShared } from './data-lock.js';
import { MANIFEST_FILE, manifestSchema } from './manifest.js';
import { verifyBackup } from './restore.js';
import { RestoreRefusedError, restorePostgresBackup } from './restore-postgres.js';
import { knownMigrationNames } from './schema.js';

const now = new Date('2026-11-25T10:00:00.000Z');

async function productIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('products').select('id').orderBy('id').execute()).map((r) => r.id);
}

async function placeOrder(db: Db, id: string, productId: string) {
  return db.transaction().execute((trx) =>
    insertPendingOrder(trx, {
      id,
      currency: 'usd',
      paymentMode: 'demo',
      lines: [
        {
          productId,
          title: productId,
          colour: null,
          size: 'M',
          quantity: 2,
          unitPriceMinor: 4500,
          imageUrl: null,
        },
      ],
      now,
    }),
  );
}

describe('backup and restore on PostgreSQL (pg_dump / pg_restore)', () => {
  let store: PostgresOpsStore;
  afterEach(async () => store?.cleanup());

  /** A store with a product, an order, an admin, settings and a media file, backed up, then changed. */
  async function backedUpThenChanged() {
    store = await createPostgresOpsStore();
    await insertProducts(store.db, [{ id: 'kept' }]);
    await placeOrder(store.db, 'ord_kept', 'kept');
    await insertAdmin(store.db, 'kept@example.com', 'hash', now);
    await updateSettings(store.db, { storeName: 'Kept Store' }, now);
    await store.storage.put('media/kept/a.webp', Buffer.from('original image'));
    const backup = await createBackup({
      dataDir: store.dir,
      backupRoot: path.join(store.dir, 'backups'),
      kind: 'manual',
      database: store.config.database,
      now,
    });
    await insertProducts(store.db, [{ id: 'added-later' }]);
    await placeOrder(store.db, 'ord_later', 'added-later');
    await store.db.deleteFrom('order_lines').where('order_id', '=', 'ord_kept').execute();
    await store.db.deleteFrom('orders').where('id', '=', 'ord_kept').execute();
    await store.db.deleteFrom('products').where('id', '=', 'kept').execute();
    await store.db.deleteFrom('admins').execute();
    await insertAdmin(store.db, 'later@example.com', 'hash', now);
    await updateSettings(store.db, { storeName: 'Changed Store' }, now);
    await store.storage.put('media/kept/a.webp', Buffer.from('overwritten image'));
    await store.storage.put('media/later/b.webp', Buffer.from('new image'));
    return backup;
  }

  it('writes a custom-format dump and a manifest with the engine, server, pg_dump, migrations and sums', async () => {
    const backup = await backedUpThenChanged();
    const manifest = manifestSchema.parse(
      JSON.parse(readFileSync(path.join(backup.dir, MANIFEST_FILE), 'utf8')),
    );
    expect(manifest.engine).toBe('postgres');
    expect(manifest.postgres?.serverVersion).toMatch(/^\d+\.\d+/);
    expect(manifest.postgres?.dumpVersion).toMatch(/^\d+\.\d+/);
    expect(manifest.schema.migrations).toEqual([...knownMigrationNames('postgres')]);
    expect(manifest.files.map((f) => f.path)).toEqual(['database.pgdump', 'media/kept/a.webp']);
    expect(manifest.files[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    // pg_dump's custom format starts with "PGDMP"; no SQLite file rides along.
    expect(readFileSync(path.join(backup.dir, 'database.pgdump')).subarray(0, 5).toString()).toBe('PGDMP');
    expect(existsSync(path.join(backup.dir, 'store.db'))).toBe(false);
    await expect(verifyBackup(backup.dir)).resolves.toMatchObject({ engine: 'postgres' });
  });

  it('puts products, orders, admins, settings and media back, and the sequences keep counting', async () => {
    const backup = await backedUpThenChanged();
    await store.stop();
    const result = await restorePostgresBackup({ backupDir: backup.dir, dataDir: store.dir, url: store.url });
    if (!result) throw new Error('a restore without a question cannot be declined');

    const db = await store.start();
    expect(await productIds(db)).toEqual(['kept']);
    expect((await db.selectFrom('orders').select(['id', 'number']).execute()).map((o) => o.id)).toEqual([
      'ord_kept',
    ]);
    expect(await db.selectFrom('order_lines').select(['order_id', 'quantity']).execute()).toEqual([
      { order_id: 'ord_kept', quantity: 2 },
    ]);
    const admins = await db.selectFrom('admins').select(['id', 'email']).execute();
    expect(admins.map((a) => a.email)).toEqual(['kept@example.com']);
    expect((await readStoredSettings(db)).storeName).toBe('Kept Store');
    expect(readFileSync(path.join(store.dir, 'media/kept/a.webp'), 'utf8')).toBe('original image');
    expect(existsSync(path.join(store.dir, 'media/later/b.webp'))).toBe(false);
    expect(readFileSync(path.join(result.previous, 'previous/media/later/b.webp'), 'utf8')).toBe('new image');

    // Identity sequences came back with the data: new rows get fresh ids, not ones the restored rows hold.
    const newAdmin = await insertAdmin(db, 'after@example.com', 'hash', now);
    expect(newAdmin).toBeGreaterThan(Math.max(...admins.map((a) => a.id)));
    await expect(placeOrder(db, 'ord_after', 'kept')).resolves.toMatchObject({ number: expect.any(Number) });
    expect(await db.selectFrom('order_lines').select('id').execute()).toHaveLength(2);
    await insertProducts(db, [{ id: 'after' }]);
    expect(await productIds(db)).toEqual(['after', 'kept']);
  });

  it('restores into an empty database', async () => {
    const backup = await backedUpThenChanged();
    const empty = await createThrowawayDatabase();
    try {
      await restorePostgresBackup({ backupDir: backup.dir, dataDir: store.dir, url: empty.url });
      const restored = await openPostgresStore(empty.url, 1);
      try {
        expect(await productIds(restored.db)).toEqual(['kept']);
      } finally {
        await restored.close();
      }
    } finally {
      await empty.drop();
    }
  });

  it('refuses while a store process is connected to the database, and works once it has stopped', async () => {
    const backup = await backedUpThenChanged();
    const attempt = () =>
      restorePostgresBackup({ backupDir: backup.dir, dataDir: store.dir, url: store.url });
    await expect(attempt()).rejects.toThrow(RestoreRefusedError);
    await expect(attempt()).rejects.toThrow(/store processes are connected to .*stop every store process/);
    expect(await productIds(store.db)).toEqual(['added-later']);
    await store.stop();
    await expect(attempt()).resolves.toBeTruthy();
  });

  it('refuses a database whose schema is newer than the backup (a restore over it would leave tables behind)', async () => {
    const backup = await backedUpThenChanged();
    await store.db
      .insertInto('kysely_migration' as never)
      .values({ name: '2999-01-01T0001-later', timestamp: now.toISOString() } as never)
      .execute();
    await store.stop();
    await expect(
      restorePostgresBackup({ backupDir: backup.dir, dataDir: store.dir, url: store.url }),
    ).rejects.toThrow(/migrations the backup does not \(2999-01-01T0001-later\).*empty database/);
  });

  it('refuses a backup from a newer version of the store, and a dump that no longer matches its sum', async () => {
    store = await createPostgresOpsStore();
    await store.db
      .insertInto('kysely_migration' as never)
      .values({ name: '2999-01-01T0001-from-the-future', timestamp: now.toISOString() } as never)
      .execute();
    const backup = await createBackup({
      dataDir: store.dir,
      backupRoot: path.join(store.dir, 'backups'),
      kind: 'manual',
      database: store.config.database,
    });
    await store.stop();
    const restore = () =>
      restorePostgresBackup({ backupDir: backup.dir, dataDir: store.dir, url: store.url });
    await expect(restore()).rejects.toThrow(/newer version of the store .*2999-01-01T0001-from-the-future/);

    const dump = path.join(backup.dir, 'database.pgdump');
    const bytes = readFileSync(dump);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    writeFileSync(dump, bytes);
    await expect(restore()).rejects.toThrow(/database\.pgdump does not match its sha256/);
  });

  it('refuses while a store process on this machine holds the data folder (the files are swapped too)', async () => {
    const backup = await backedUpThenChanged();
    await store.stop();
    const serverLock = await lockDataDirShared(store.dir);
    try {
      await expect(
        restorePostgresBackup({ backupDir: backup.dir, dataDir: store.dir, url: store.url }),
      ).rejects.toThrow(DataDirBusyError);
    } finally {
      serverLock.release();
    }
    const db = await store.start();
    expect(await productIds(db)).toEqual(['added-later']);
  });

  it('refuses a database without the store’s schema and leaves no partial backup behind', async () => {
    store = await createPostgresOpsStore();
    const other = await createThrowawayDatabase();
    const root = path.join(store.dir, 'backups');
    try {
      const attempt = createBackup({
        dataDir: store.dir,
        backupRoot: root,
        kind: 'manual',
        database: { kind: 'postgres', url: other.url, poolSize: 1 },
      });
      await expect(attempt).rejects.toThrow(BackupError);
      await expect(attempt).rejects.toThrow(/the dump holds no schema/);
    } finally {
      await other.drop();
    }
    expect(readdirSync(root)).toEqual([]);
  });
});
