import { rm } from 'node:fs/promises';
import path from 'node:path';
import { lockDataDirExclusive } from './data-lock.js';
import { POSTGRES_DUMP_FILE } from './files.js';
import { type Manifest, readManifest, requireEngine } from './manifest.js';
import { restoreDump } from './postgres/pg-dump.js';
import {
  appliedPostgresMigrations,
  describeUrl,
  storeConnections,
  withOpsClient,
} from './postgres/pg-server.js';
import type { PgTools } from './postgres/pg-tools.js';
import {
  commitPlan,
  completeRestore,
  finishInterruptedRestore,
  type RestoreResult,
  stageFiles,
  verifyBackup,
} from './restore.js';

/** The database is in a state a restore must not replace (a store uses it, or its schema is newer). */
export class RestoreRefusedError extends Error {
  override name = 'RestoreRefusedError';
}

/**
 * Whether the database may be replaced now. A data folder's lock covers the processes of one machine only;
 * store processes on other machines show as connections named `storefront` (connect-postgres.ts). And
 * pg_restore --clean drops only what the dump holds: a table a newer migration added would outlive the
 * restore while kysely_migration forgets it, and the next start would fail to create it again.
 */
async function refuseLiveDatabase(url: string, manifest: Manifest): Promise<void> {
  const { connections, applied } = await withOpsClient(url, async (client) => ({
    connections: await storeConnections(client),
    applied: await appliedPostgresMigrations(client),
  }));
  if (connections > 0)
    throw new RestoreRefusedError(
      `store processes are connected to ${describeUrl(url)} (${connections} connection${connections === 1 ? '' : 's'} named storefront): stop every store process on every machine first (e.g. systemctl stop storefront).`,
    );
  const inBackup = new Set(manifest.schema.migrations);
  const newer = applied.filter((m) => !inBackup.has(m));
  if (newer.length > 0)
    throw new RestoreRefusedError(
      `the database has migrations the backup does not (${newer.join(', ')}): its schema is newer than the backup's, and a restore over it would leave the newer tables behind. Restore into an empty database instead: dropdb and createdb it (or point DATABASE_URL at a new one), then run the restore again.`,
    );
}

/**
 * Puts a PostgreSQL store's backup back: the dump into the database DATABASE_URL names, the files into
 * DATA_DIR. Refuses, changing nothing, while a store process on this machine holds DATA_DIR or any store
 * process is connected to the database, when the backup fails its checks, or is another engine's.
 *
 * Order: the files are staged first (nothing changes yet), then pg_restore replaces the database in one
 * transaction, then the plan is written and the files swapped as for SQLite. A failed pg_restore changes
 * nothing; an interruption between its commit and the plan (one fsync) leaves the restored database with the
 * old files, and running the same restore again puts both right (it is safe to repeat).
 */
export async function restorePostgresBackup(opts: {
  backupDir: string;
  dataDir: string;
  url: string;
  tools?: PgTools;
  now?: Date;
  confirm?: (manifest: Manifest) => Promise<boolean>;
}): Promise<RestoreResult | null> {
  const backupDir = path.resolve(opts.backupDir);
  const tools = opts.tools ?? { binDir: null };
  requireEngine(await readManifest(backupDir), 'postgres');
  const lock = lockDataDirExclusive(opts.dataDir);
  try {
    const manifest = await verifyBackup(backupDir, { tools });
    await refuseLiveDatabase(opts.url, manifest);
    if (opts.confirm && !(await opts.confirm(manifest))) return null;
    const now = opts.now ?? new Date();
    const notes = await finishInterruptedRestore(opts.dataDir);
    const files = manifest.files.filter((f) => f.path !== POSTGRES_DUMP_FILE);
    const staging = await stageFiles(backupDir, opts.dataDir, files, now);
    try {
      // Again: a store may have started while the question waited.
      await refuseLiveDatabase(opts.url, manifest);
      await restoreDump(opts.url, path.join(backupDir, POSTGRES_DUMP_FILE), tools);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    await commitPlan(staging, backupDir, now);
    const previous = await completeRestore(opts.dataDir, staging, now);
    return { manifest, previous, notes };
  } finally {
    lock.release();
  }
}
