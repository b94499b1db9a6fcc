import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverInfo, withOpsClient } from '../ops/postgres/pg-server.js';
import { listBackups } from '../ops/scheduled-backups.js';
import { type CommandResult, storeCommand } from '../test-support/admin-command.js';
import { insertProducts } from '../test-support/fixtures.js';
import {
  createPostgresOpsStore,
  type PostgresOpsStore,
  TEST_SESSION_SECRET,
} from '../test-support/postgres-ops-store.js';

/** `npm run backup|restore -- ARGS` in its own process against the store's PostgreSQL, with no terminal. */
function command(
  name: 'backup' | 'restore',
  args: string[],
  store: PostgresOpsStore,
  env: Record<string, string> = {},
): Promise<CommandResult> {
  return storeCommand(name, args, {
    env: {
      DATA_DIR: store.dir,
      DATABASE_URL: store.url,
      SESSION_SECRET: TEST_SESSION_SECRET,
      NODE_ENV: 'test',
      ...env,
    },
  });
}

describe('npm run backup and npm run restore with DATABASE_URL (the commands)', () => {
  let store: PostgresOpsStore;
  let emptyPath: string | null = null;
  afterEach(async () => {
    await store.cleanup();
    if (emptyPath) rmSync(emptyPath, { recursive: true, force: true });
  });

  it('says exactly what to install when pg_dump is not on PATH, and writes no backup', async () => {
    store = await createPostgresOpsStore();
    emptyPath = mkdtempSync(path.join(tmpdir(), 'store-no-pg-tools-'));
    const { major } = await withOpsClient(store.url, serverInfo);
    // A PATH that finds nothing: node and tsx are reached by absolute paths, pg_dump only through PATH.
    const run = await command('backup', [], store, { PATH: emptyPath });
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      `pg_dump was not found on PATH. Install the PostgreSQL client tools of the server's major version (Debian/Ubuntu: apt-get install postgresql-client-${major}) or put them on PATH, or set POSTGRES_BIN_DIR`,
    );
    expect(run.out).not.toMatch(/ENOENT|at .*\.ts:\d+/);
    expect(await listBackups(path.join(store.dir, 'backups'))).toEqual([]);
  }, 30_000);

  it('backs up, verifies, refuses to restore while the store runs, then restores with --yes', async () => {
    store = await createPostgresOpsStore();
    await insertProducts(store.db, [{ id: 'kept' }]);
    const made = await command('backup', [], store);
    expect(made.out).toMatch(/^Backup written to .*: 1 file, .* dumped with pg_dump \d+\.\d+/m);
    expect(made.code).toBe(0);
    const [backup] = await listBackups(path.join(store.dir, 'backups'));
    if (!backup) throw new Error('no backup listed');

    const verified = await command('backup', ['--verify', backup.dir], store);
    expect(verified.out).toMatch(/^OK: .*pg_restore reads the PostgreSQL dump/m);

    await store.db.deleteFrom('products').execute();
    const busy = await command('restore', [backup.dir, '--yes'], store);
    expect(busy.code).toBe(1);
    expect(busy.out).toMatch(/^Not restored: store processes are connected to /m);

    await store.stop();
    const done = await command('restore', [backup.dir, '--yes'], store);
    expect(done.out).toMatch(/^Restored\./m);
    expect(done.code).toBe(0);
    const db = await store.start();
    expect((await db.selectFrom('products').select('id').execute()).map((r) => r.id)).toEqual(['kept']);
  }, 60_000);
});
