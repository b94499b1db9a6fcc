import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresOpsStore, type PostgresOpsStore } from '../../test-support/postgres-ops-store.js';
import { createBackup } from '../backup.js';
import { restorePostgresBackup } from '../restore-postgres.js';
import { listBackups } from '../scheduled-backups.js';
import { serverInfo, withOpsClient } from './pg-server.js';
import { connectionFor, PgToolError, parseToolVersion } from './pg-tools.js';

describe('the PostgreSQL client tools', () => {
  let store: PostgresOpsStore;
  let binDir: string;
  beforeEach(async () => {
    store = await createPostgresOpsStore();
    binDir = mkdtempSync(path.join(tmpdir(), 'store-pg-bin-'));
  });
  afterEach(async () => {
    await store.cleanup();
    rmSync(binDir, { recursive: true, force: true });
  });

  const backup = () =>
    createBackup({
      dataDir: store.dir,
      backupRoot: path.join(store.dir, 'backups'),
      kind: 'manual',
      database: store.config.database,
      tools: { binDir },
    });

  it('a missing pg_dump is reported as what to install for the server’s major version, and no backup is left', async () => {
    const { major } = await withOpsClient(store.url, serverInfo);
    await expect(backup()).rejects.toThrow(PgToolError);
    await expect(backup()).rejects.toThrow(
      `pg_dump was not found in ${binDir} (POSTGRES_BIN_DIR). Install the PostgreSQL client tools of the server's major version (Debian/Ubuntu: apt-get install postgresql-client-${major}) or put them on PATH`,
    );
    expect(await listBackups(path.join(store.dir, 'backups'))).toEqual([]);
  });

  it('a pg_dump older than the server is refused before it runs', async () => {
    const { major } = await withOpsClient(store.url, serverInfo);
    // Stands in for the pg_dump of an older client package: it says its version and nothing else.
    const fake = path.join(binDir, 'pg_dump');
    writeFileSync(fake, `#!/bin/sh\necho "pg_dump (PostgreSQL) ${major - 1}.4"\n`);
    chmodSync(fake, 0o755);
    await expect(backup()).rejects.toThrow(
      new RegExp(
        `pg_dump ${major - 1}\\.4 .* is older than the server \\(${major}\\).*apt-get install postgresql-client-${major}`,
      ),
    );
  });

  it('a missing pg_restore stops a restore before anything changed', async () => {
    const made = await createBackup({
      dataDir: store.dir,
      backupRoot: path.join(store.dir, 'backups'),
      kind: 'manual',
      database: store.config.database,
    });
    await store.stop();
    await expect(
      restorePostgresBackup({ backupDir: made.dir, dataDir: store.dir, url: store.url, tools: { binDir } }),
    ).rejects.toThrow(/^pg_restore was not found in .*postgresql-client-\d+/);
  });
});

describe('reading what the tools say', () => {
  it('reads versions as the tools print them, and keeps the password out of the argument list', () => {
    expect(parseToolVersion('pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)\n')).toEqual({
      text: '15.20',
      major: 15,
    });
    expect(parseToolVersion('pg_restore (PostgreSQL) 9.6.24')).toEqual({ text: '9.6.24', major: 9 });
    expect(parseToolVersion('something else')).toBeNull();
    expect(connectionFor('postgres://shop:p%40ss@db.internal:5433/store?sslmode=require')).toEqual({
      dbname: 'postgres://shop@db.internal:5433/store?sslmode=require',
      env: { PGPASSWORD: 'p@ss' },
    });
  });
});
