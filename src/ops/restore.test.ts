import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../scripts/launcher/server.js';
import { databaseFile, openDatabase } from '../db/connect.js';
import { insertProducts } from '../test-support/fixtures.js';
import { createTestStore, type TestStore, testEngine } from '../test-support/test-store.js';
import { createBackup } from './backup.js';
import { DataDirBusyError, lockDataDirShared } from './data-lock.js';
import { BackupInvalidError } from './manifest.js';
import { finishInterruptedRestore, interruptedRestore, restoreBackup, stageRestore } from './restore.js';

async function productIds(file: string): Promise<string[]> {
  const db = new SQLite(file, { readonly: true });
  try {
    return db.prepare<[], string>('SELECT id FROM products ORDER BY id').pluck().all();
  } finally {
    db.close();
  }
}

/**
 * Restoring a SQLite store: the file swapped in DATA_DIR. The PostgreSQL twin (pg_restore, refusals while
 * store processes are connected) is backup-postgres.test.ts, which runs in both modes.
 */
describe.skipIf(testEngine === 'postgres')('npm run restore (SQLite)', () => {
  let store: TestStore;
  const extraDirs: string[] = [];
  afterEach(async () => {
    await store.cleanup();
    for (const d of extraDirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  /** A store with one product and one media file, backed up, then changed; the store's handle is closed. */
  async function backedUpThenChanged() {
    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'kept' }]);
    await store.storage.put('media/kept/a.webp', Buffer.from('original image'));
    const backup = await createBackup({
      dataDir: store.dir,
      backupRoot: path.join(store.dir, 'backups'),
      kind: 'manual',
    });
    await insertProducts(store.handle.db, [{ id: 'added-later' }]);
    await store.handle.db.deleteFrom('products').where('id', '=', 'kept').execute();
    await store.storage.put('media/kept/a.webp', Buffer.from('overwritten image'));
    await store.storage.put('media/later/b.webp', Buffer.from('new image'));
    await store.handle.close(); // the server is stopped for a restore
    return backup;
  }

  it('puts the database and media back to the backup state and keeps the replaced data aside', async () => {
    const backup = await backedUpThenChanged();
    writeFileSync(path.join(store.dir, 'session.key'), `${'b'.repeat(64)}\n`, { mode: 0o600 });

    const result = await restoreBackup({ backupDir: backup.dir, dataDir: store.dir });
    if (!result) throw new Error('a restore without a question cannot be declined');

    expect(await productIds(databaseFile(store.dir))).toEqual(['kept']);
    expect(readFileSync(path.join(store.dir, 'media/kept/a.webp'), 'utf8')).toBe('original image');
    expect(existsSync(path.join(store.dir, 'media/later/b.webp'))).toBe(false);
    // The session key is not part of backups and stays as it was.
    expect(readFileSync(path.join(store.dir, 'session.key'), 'utf8')).toBe(`${'b'.repeat(64)}\n`);
    // What was replaced is kept, WAL and all, and still opens with the later data.
    expect(path.basename(result.previous)).toMatch(/^\.pre-restore-\d{8}T\d{6}Z/);
    expect(await productIds(path.join(result.previous, 'previous', 'store.db'))).toEqual(['added-later']);
    expect(readFileSync(path.join(result.previous, 'previous/media/later/b.webp'), 'utf8')).toBe('new image');
    // No staging left; the restored store opens and migrates like any other.
    expect(readdirSync(store.dir).filter((n) => n.startsWith('.restore-'))).toEqual([]);
    const reopened = openDatabase(databaseFile(store.dir));
    await reopened.close();
  });

  it('refuses a tampered backup (a file no longer matches its sha256) and changes nothing', async () => {
    const backup = await backedUpThenChanged();
    writeFileSync(path.join(backup.dir, 'media/kept/a.webp'), 'tampered image'); // same length as before
    await expect(restoreBackup({ backupDir: backup.dir, dataDir: store.dir })).rejects.toThrow(
      /media\/kept\/a\.webp does not match its sha256/,
    );
    expect(await productIds(databaseFile(store.dir))).toEqual(['added-later']);
    expect(readdirSync(store.dir).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('refuses a manifest that reaches outside the data folder', async () => {
    const backup = await backedUpThenChanged();
    const file = path.join(backup.dir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { files: { path: string }[] };
    manifest.files.push({ ...(manifest.files[0] as { path: string }), path: 'media/../../etc/passwd' });
    writeFileSync(file, JSON.stringify(manifest));
    await expect(restoreBackup({ backupDir: backup.dir, dataDir: store.dir })).rejects.toThrow(
      BackupInvalidError,
    );
  });

  it('refuses a backup from a newer version of the store (a migration this code does not know)', async () => {
    store = await createTestStore();
    await store.handle.db
      .insertInto('kysely_migration' as never)
      .values({ name: '2999-01-01T0001-from-the-future', timestamp: new Date().toISOString() } as never)
      .execute();
    const backup = await createBackup({
      dataDir: store.dir,
      backupRoot: path.join(store.dir, 'backups'),
      kind: 'manual',
    });
    await store.handle.close();
    await expect(restoreBackup({ backupDir: backup.dir, dataDir: store.dir })).rejects.toThrow(
      /newer version of the store .*2999-01-01T0001-from-the-future/,
    );
  });

  it('refuses while a server holds the data folder, and works once it has stopped', async () => {
    const backup = await backedUpThenChanged();
    const serverLock = await lockDataDirShared(store.dir);
    await expect(restoreBackup({ backupDir: backup.dir, dataDir: store.dir })).rejects.toThrow(
      DataDirBusyError,
    );
    serverLock.release();
    await expect(restoreBackup({ backupDir: backup.dir, dataDir: store.dir })).resolves.toBeTruthy();
  });

  it('asks only with the folder locked and the backup checked: a running store is refused before the question', async () => {
    const backup = await backedUpThenChanged();
    const asked: string[] = [];
    const confirm = async (manifest: { createdAt: string }) => {
      asked.push(manifest.createdAt);
      return false;
    };
    const serverLock = await lockDataDirShared(store.dir);
    await expect(restoreBackup({ backupDir: backup.dir, dataDir: store.dir, confirm })).rejects.toThrow(
      DataDirBusyError,
    );
    expect(asked).toEqual([]);
    serverLock.release();

    // Asked now; "no" changes nothing, and the folder is free again afterwards.
    await expect(restoreBackup({ backupDir: backup.dir, dataDir: store.dir, confirm })).resolves.toBeNull();
    expect(asked).toEqual([backup.manifest.createdAt]);
    expect(await productIds(databaseFile(store.dir))).toEqual(['added-later']);
    expect(readdirSync(store.dir).filter((n) => n.startsWith('.'))).toEqual([]);
    (await lockDataDirShared(store.dir)).release();
  });

  it('refuses while the real server (src/main.ts) runs on the folder, and not after it was killed -9 (no stale lock)', async () => {
    store = await createTestStore();
    const backup = await createBackup({
      dataDir: store.dir,
      backupRoot: path.join(store.dir, 'backups'),
      kind: 'manual',
    });
    await store.handle.close();
    // Up means it holds the data folder's lock: the lock is taken before the server listens.
    const server = await startServer({
      entry: 'source',
      dataDir: store.dir,
      env: { DEMO_CATALOGUE: 'false' },
    });
    try {
      await expect(restoreBackup({ backupDir: backup.dir, dataDir: store.dir })).rejects.toThrow(
        /A store server \(or a backup\) is running on/,
      );
    } finally {
      await server.kill(); // no clean shutdown: the OS drops the lock with the process
    }
    await expect(restoreBackup({ backupDir: backup.dir, dataDir: store.dir })).resolves.toBeTruthy();
  }, 40_000);

  it('a crash after the plan was written is completed at the next start; before it, nothing changed', async () => {
    const backup = await backedUpThenChanged();
    // Crash 1: staged, plan written, and only store.db swapped (media still the old one).
    const { staging } = await stageRestore(backup.dir, store.dir, new Date());
    await rename(path.join(store.dir, 'store.db'), path.join(staging, 'previous-by-hand.db'));
    await rename(path.join(staging, 'new', 'store.db'), path.join(store.dir, 'store.db'));
    expect(await interruptedRestore(store.dir)).toBe(true);

    const notes = await finishInterruptedRestore(store.dir);
    expect(notes[0]).toMatch(/completed an interrupted restore/);
    expect(await productIds(databaseFile(store.dir))).toEqual(['kept']);
    expect(readFileSync(path.join(store.dir, 'media/kept/a.webp'), 'utf8')).toBe('original image');
    expect(await interruptedRestore(store.dir)).toBe(false);

    // Crash 2: staging without a plan (interrupted while copying): removed, data untouched.
    const half = path.join(store.dir, '.restore-20261122T100000Z-dead');
    extraDirs.push(half);
    mkdirSync(path.join(half, 'new'), { recursive: true });
    const notes2 = await finishInterruptedRestore(store.dir);
    expect(notes2[0]).toMatch(/nothing had changed/);
    expect(existsSync(half)).toBe(false);
    expect(await productIds(databaseFile(store.dir))).toEqual(['kept']);
  });
});
