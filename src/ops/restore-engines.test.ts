import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertProducts } from '../test-support/fixtures.js';
import { createPostgresOpsStore, type PostgresOpsStore } from '../test-support/postgres-ops-store.js';
import { createBackup } from './backup.js';
import { BackupInvalidError, MANIFEST_FORMAT, manifestSchema } from './manifest.js';
import { restoreBackup } from './restore.js';
import { restorePostgresBackup } from './restore-postgres.js';

/** Both engines at once, whatever TEST_DATABASE says: the point is a backup of one restored into the other. */
describe('a backup restores only into the engine it was made from', () => {
  let pgStore: PostgresOpsStore;
  let sqliteDir: string;
  afterEach(async () => {
    await pgStore?.cleanup();
    rmSync(sqliteDir, { recursive: true, force: true });
  });

  async function oneOfEach() {
    sqliteDir = mkdtempSync(path.join(tmpdir(), 'store-sqlite-ops-'));
    const sqlite = openDatabase(databaseFile(sqliteDir));
    await migrateToLatest(sqlite.db);
    await insertProducts(sqlite.db, [{ id: 'in-sqlite' }]);
    const sqliteBackup = await createBackup({
      dataDir: sqliteDir,
      backupRoot: path.join(sqliteDir, 'backups'),
      kind: 'manual',
    });
    await sqlite.close();

    pgStore = await createPostgresOpsStore();
    await insertProducts(pgStore.db, [{ id: 'in-postgres' }]);
    const pgBackup = await createBackup({
      dataDir: pgStore.dir,
      backupRoot: path.join(pgStore.dir, 'backups'),
      kind: 'manual',
      database: pgStore.config.database,
    });
    await pgStore.stop();
    return { sqliteBackup, pgBackup };
  }

  it('refuses a SQLite backup on PostgreSQL and a PostgreSQL backup on SQLite, saying which is which', async () => {
    const { sqliteBackup, pgBackup } = await oneOfEach();

    const intoPostgres = restorePostgresBackup({
      backupDir: sqliteBackup.dir,
      dataDir: pgStore.dir,
      url: pgStore.url,
    });
    await expect(intoPostgres).rejects.toThrow(BackupInvalidError);
    await expect(intoPostgres).rejects.toThrow(
      /backup of a SQLite store, and this store is configured for PostgreSQL \(DATABASE_URL is set\).*unset DATABASE_URL/,
    );

    const intoSqlite = restoreBackup({ backupDir: pgBackup.dir, dataDir: sqliteDir });
    await expect(intoSqlite).rejects.toThrow(
      /backup of a PostgreSQL store, and this store is configured for SQLite \(DATABASE_URL is not set\).*set DATABASE_URL/,
    );

    // Nothing changed on either side.
    const db = await pgStore.start();
    expect((await db.selectFrom('products').select('id').execute()).map((r) => r.id)).toEqual([
      'in-postgres',
    ]);
    const sqlite = openDatabase(databaseFile(sqliteDir));
    try {
      expect((await sqlite.db.selectFrom('products').select('id').execute()).map((r) => r.id)).toEqual([
        'in-sqlite',
      ]);
    } finally {
      await sqlite.close();
    }
  });
});

describe('manifests from before PostgreSQL', () => {
  it('read as SQLite backups (they have no engine field), so older backups still restore', () => {
    const old = manifestSchema.parse({
      format: MANIFEST_FORMAT,
      createdAt: '2026-11-22T03:00:00.000Z',
      kind: 'scheduled',
      schema: { migrations: ['0001'], latest: '0001' },
      files: [{ path: 'store.db', size: 1, sha256: 'a'.repeat(64) }],
    });
    expect(old.engine).toBe('sqlite');
    expect(old.postgres).toBeUndefined();
  });
});
