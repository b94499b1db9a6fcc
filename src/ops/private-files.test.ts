import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, databaseFile, openDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertProducts } from '../test-support/fixtures.js';
import { createBackup } from './backup.js';
import type { DataLock } from './data-lock.js';
import { runDoctor } from './doctor.js';
import { claimDataDir } from './start-up.js';

const modeOf = (p: string) => (statSync(p).mode & 0o777).toString(8);

/** What main.ts does with DATA_DIR before it serves: claim the folder, open and migrate the database. */
async function startStore(dataDir: string): Promise<{ lock: DataLock; handle: DatabaseHandle }> {
  const lock = await claimDataDir(dataDir, () => {});
  const handle = openDatabase(databaseFile(dataDir));
  await migrateToLatest(handle.db);
  return { lock, handle };
}

describe('the modes of what the store creates in DATA_DIR', () => {
  const roots: string[] = [];
  const open: Array<{ lock: DataLock; handle: DatabaseHandle }> = [];
  afterEach(async () => {
    for (const s of open.splice(0)) {
      await s.handle.close();
      s.lock.release();
    }
    for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  });

  /** A clone's ./data: git made it 0755 because data/demo/ is in the repository. */
  function clonedDataFolder(): string {
    const root = mkdtempSync(path.join(tmpdir(), 'store-modes-'));
    roots.push(root);
    const dataDir = path.join(root, 'data');
    mkdirSync(path.join(dataDir, 'demo'), { recursive: true });
    chmodSync(dataDir, 0o755);
    return dataDir;
  }

  it('a fresh install is private whatever the umask: folders 0700, database, WAL and lock 0600; doctor says OK', async () => {
    const dataDir = clonedDataFolder();
    const umask = process.umask(0); // the loosest umask: nothing may rely on it
    try {
      const store = await startStore(dataDir);
      open.push(store);
      await insertProducts(store.handle.db, [{ id: 'p1' }]); // the WAL now has frames
      expect(modeOf(dataDir)).toBe('700');
      for (const file of ['store.db', 'store.db-wal', 'store.db-shm', 'store.lock'])
        expect([file, modeOf(path.join(dataDir, file))]).toEqual([file, '600']);
      for (const folder of ['media', 'catalogs'])
        expect([folder, modeOf(path.join(dataDir, folder))]).toEqual([folder, '700']);

      const results = await runDoctor({ DATA_DIR: dataDir, NODE_ENV: 'development' }, { uid: null });
      expect(results.find((r) => r.check === 'data-dir')).toMatchObject({ level: 'OK' });
      expect(results.filter((r) => /mode|readable by other/.test(r.message) && r.level !== 'OK')).toEqual([]);
    } finally {
      process.umask(umask);
    }
  });

  it('a backup is private too: its folders 0700 and every file in it 0600', async () => {
    const dataDir = clonedDataFolder();
    const store = await startStore(dataDir);
    open.push(store);
    mkdirSync(path.join(dataDir, 'media', 'p1'));
    // An upload as the storage layer writes it (umask mode), inside the private media/ folder.
    writeFileSync(path.join(dataDir, 'media', 'p1', 'a.webp'), 'image', { mode: 0o644 });
    const backupRoot = path.join(dataDir, 'backups');
    const backup = await createBackup({ dataDir, backupRoot, kind: 'manual' });
    expect(modeOf(backupRoot)).toBe('700');
    expect(modeOf(backup.dir)).toBe('700');
    for (const entry of readdirSync(backup.dir, { recursive: true, withFileTypes: true })) {
      const full = path.join(entry.parentPath, entry.name);
      expect([path.relative(backup.dir, full), modeOf(full)]).toEqual([
        path.relative(backup.dir, full),
        entry.isDirectory() ? '700' : '600',
      ]);
    }
  });

  it('leaves a folder someone loosened as it is at the next start, and doctor still warns about it', async () => {
    const dataDir = clonedDataFolder();
    const first = await startStore(dataDir);
    await first.handle.close();
    first.lock.release();
    chmodSync(dataDir, 0o755);

    open.push(await startStore(dataDir));
    expect(modeOf(dataDir)).toBe('755');
    const results = await runDoctor({ DATA_DIR: dataDir, NODE_ENV: 'development' }, { uid: null });
    expect(results.find((r) => r.check === 'data-dir')).toMatchObject({
      level: 'WARN',
      message: expect.stringMatching(/readable by other users \(mode 755\).*chmod 700/),
    });
  });
});
