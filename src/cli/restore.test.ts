import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { appRoot } from '../app-root.js';
import { databaseFile } from '../db/connect.js';
import { createBackup } from '../ops/backup.js';
import { lockDataDirShared } from '../ops/data-lock.js';
import { type CommandResult, storeCommand } from '../test-support/admin-command.js';
import { insertProducts } from '../test-support/fixtures.js';
import { createTestStore, type TestStore, testEngine } from '../test-support/test-store.js';

/** `npm run restore -- ARGS` in its own process, with no terminal on stdin (as in a script or over ssh -T). */
function restore(args: string[], dataDir: string): Promise<CommandResult> {
  return storeCommand('restore', args, { env: { DATA_DIR: dataDir, NODE_ENV: 'test' } });
}

function productIds(dataDir: string): string[] {
  const db = new SQLite(databaseFile(dataDir), { readonly: true });
  try {
    return db.prepare<[], string>('SELECT id FROM products ORDER BY id').pluck().all();
  } finally {
    db.close();
  }
}

/** On a SQLite store; backup-postgres.test.ts runs the commands with DATABASE_URL. */
describe.skipIf(testEngine === 'postgres')('npm run restore (the command, SQLite)', () => {
  let store: TestStore;
  afterEach(async () => store.cleanup());

  /** A backup holding product "kept"; the live store then has "added-later" instead. Handle closed. */
  async function backedUpThenChanged() {
    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'kept' }]);
    const backupRoot = path.join(store.dir, 'backups');
    const backup = await createBackup({ dataDir: store.dir, backupRoot, kind: 'manual' });
    await insertProducts(store.handle.db, [{ id: 'added-later' }]);
    await store.handle.db.deleteFrom('products').where('id', '=', 'kept').execute();
    await store.handle.close();
    return { backup, backupRoot };
  }

  it('says a store is running before asking anything, then asks (or needs --yes), then restores', async () => {
    const { backup } = await backedUpThenChanged();

    const serverLock = await lockDataDirShared(store.dir);
    const busy = await restore([backup.dir], store.dir);
    serverLock.release();
    expect(busy.code).toBe(1);
    expect(busy.out).toMatch(/Not restored: A store server \(or a backup\) is running on/);
    expect(busy.out).not.toMatch(/--yes|Replace the database/);

    const noTerminal = await restore([backup.dir], store.dir);
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.out).toMatch(/Backup .*: made .*, 1 file, checks passed\./);
    expect(noTerminal.out).toMatch(/No terminal to confirm on: add --yes/);
    expect(productIds(store.dir)).toEqual(['added-later']);

    const yes = await restore([backup.dir, '--yes'], store.dir);
    expect(yes.out).toMatch(/^Restored\./m);
    expect(yes.code).toBe(0);
    expect(productIds(store.dir)).toEqual(['kept']);
  }, 30_000);

  it('given the folder of all backups, names one backup inside it to pass instead', async () => {
    const { backup, backupRoot } = await backedUpThenChanged();
    const run = await restore([backupRoot], store.dir);
    expect(run.code).toBe(2);
    expect(run.out).toContain(
      `holds backups; name one of them, e.g. npm run restore -- ${path.relative(appRoot, backup.dir)}`,
    );
    expect(productIds(store.dir)).toEqual(['added-later']);
  }, 20_000);
});
