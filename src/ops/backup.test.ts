import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { insertProducts, productRow } from '../test-support/fixtures.js';
import { createTestStore, type TestStore, testEngine } from '../test-support/test-store.js';
import { BackupError, createBackup } from './backup.js';
import { MANIFEST_FILE, manifestSchema } from './manifest.js';
import { verifyBackup } from './restore.js';
import { knownMigrations } from './schema.js';

/**
 * SQLite's backups: the online backup API, integrity_check, the file in DATA_DIR. Their PostgreSQL twin
 * (pg_dump) is backup-postgres.test.ts, which runs in both modes.
 */
describe.skipIf(testEngine === 'postgres')('npm run backup (SQLite)', () => {
  let store: TestStore;
  afterEach(async () => store.cleanup());

  it('copies a consistent, verified database while a writer in the same process keeps committing', async () => {
    store = await createTestStore();
    const db = store.handle.db;
    // Enough rows that the copy takes many steps (pagesPerStep 4), so the writer runs between them.
    await insertProducts(
      db,
      Array.from({ length: 400 }, (_, i) => ({ id: `seed${i}`, description: 'x'.repeat(2000) })),
    );
    let committed = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('products')
            .values(productRow({ id: `w${committed}` }))
            .execute();
          await new Promise((r) => setImmediate(r)); // an open transaction across an await, as in the app
        });
        committed += 1;
      }
    })();
    while (committed < 5) await new Promise((r) => setImmediate(r));
    const before = committed;
    const result = await createBackup({
      dataDir: store.dir,
      backupRoot: path.join(store.dir, 'backups'),
      kind: 'manual',
      pagesPerStep: 4,
    });
    const after = committed;
    writing = false;
    await writer;
    expect(after).toBeGreaterThan(before); // the writer really ran during the backup

    const copy = new SQLite(path.join(result.dir, 'store.db'), { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = copy.prepare<[], string>("SELECT id FROM products WHERE id LIKE 'w%'").pluck().all();
      const seeds = copy.prepare("SELECT count(*) AS n FROM products WHERE id LIKE 'seed%'").get();
      expect(seeds).toEqual({ n: 400 });
      // One snapshot: every row committed before the backup began, and a gapless prefix of the writer's rows.
      expect(ids.length).toBeGreaterThanOrEqual(before);
      expect(ids.length).toBeLessThanOrEqual(after);
      expect(new Set(ids)).toEqual(new Set(Array.from({ length: ids.length }, (_, i) => `w${i}`)));
    } finally {
      copy.close();
    }
  });

  it('carries media and catalogue files with a manifest of sizes, sha256 and the schema, and no session key', async () => {
    store = await createTestStore();
    await store.storage.put('media/p1/photo.webp', Buffer.from('image bytes'));
    await store.storage.put('catalogs/v1.yaml', Buffer.from('products: []\n'));
    writeFileSync(path.join(store.dir, 'media', 'p1', 'upload.123.tmp'), 'half an upload');
    writeFileSync(path.join(store.dir, 'session.key'), `${'a'.repeat(64)}\n`, { mode: 0o600 });

    const now = new Date('2026-11-22T10:00:00.000Z');
    const result = await createBackup({
      dataDir: store.dir,
      backupRoot: path.join(store.dir, 'backups'),
      kind: 'manual',
      now,
    });
    expect(path.basename(result.dir)).toBe('store-20261122T100000Z');
    const manifest = manifestSchema.parse(
      JSON.parse(readFileSync(path.join(result.dir, MANIFEST_FILE), 'utf8')),
    );
    expect(manifest.createdAt).toBe(now.toISOString());
    expect(manifest.schema).toEqual({ migrations: [...knownMigrations], latest: knownMigrations.at(-1) });
    expect(manifest.files.map((f) => f.path)).toEqual([
      'store.db',
      'media/p1/photo.webp',
      'catalogs/v1.yaml',
    ]);
    expect(manifest.files[1]).toEqual({
      path: 'media/p1/photo.webp',
      size: 11,
      sha256: createHash('sha256').update('image bytes').digest('hex'),
    });
    expect(existsSync(path.join(result.dir, 'session.key'))).toBe(false);
    expect(existsSync(path.join(result.dir, 'media', 'p1', 'upload.123.tmp'))).toBe(false);
    await expect(verifyBackup(result.dir)).resolves.toMatchObject({ kind: 'manual' });

    // Same second again: a second folder, never an overwrite.
    const again = await createBackup({
      dataDir: store.dir,
      backupRoot: path.join(store.dir, 'backups'),
      kind: 'manual',
      now,
    });
    expect(path.basename(again.dir)).toBe('store-20261122T100000Z-1');
  });

  it('refuses a folder without a store database and leaves no partial backup behind', async () => {
    store = await createTestStore();
    const empty = path.join(store.dir, 'not-a-store');
    const root = path.join(store.dir, 'backups');
    await expect(createBackup({ dataDir: empty, backupRoot: root, kind: 'manual' })).rejects.toThrow(
      BackupError,
    );
    // A SQLite file without the store's schema: the copy is made, then refused, and removed.
    const other = path.join(store.dir, 'other');
    mkdirSync(other);
    const db = new SQLite(path.join(other, 'store.db'));
    db.exec('CREATE TABLE t(x)');
    db.close();
    await expect(createBackup({ dataDir: other, backupRoot: root, kind: 'manual' })).rejects.toThrow(
      /no schema/,
    );
    expect(existsSync(root) ? readdirSync(root) : []).toEqual([]);
  });
});
