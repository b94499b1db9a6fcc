import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Config } from '../config.js';
import { databaseFile } from '../db/connect.js';
import type { FileStorage } from '../storage/file-storage.js';
import { makePrivateDir, makeTreePrivate } from '../storage/private-files.js';
import { lockDataDirShared } from './data-lock.js';
import {
  copyStoreFiles,
  DATABASE_FILE,
  databaseFileOf,
  describeFiles,
  exists,
  fsyncPath,
  fsyncTree,
  matchOwner,
  POSTGRES_DUMP_FILE,
  stamp,
} from './files.js';
import { MANIFEST_FILE, MANIFEST_FORMAT, type Manifest } from './manifest.js';
import { type DumpInfo, dumpDatabase } from './postgres/pg-dump.js';
import type { PgTools } from './postgres/pg-tools.js';
import { appliedMigrations, integrityProblem } from './schema.js';
import { copyFilesFromStorage, keptInDataDir } from './storage-files.js';

export class BackupError extends Error {
  override name = 'BackupError';
}

export type BackupKind = Manifest['kind'];
/** The database a backup copies: the SQLite file in DATA_DIR, or the PostgreSQL database DATABASE_URL names. */
export type BackupSource = Config['database'];
export type BackupResult = { dir: string; manifest: Manifest; bytes: number };

/** Finished backups are `store-<UTC stamp>[-scheduled]`; a `.partial-…` folder is one being written. */
export const BACKUP_NAME = /^store-\d{8}T\d{6}Z(-\d+)?(-scheduled)?$/;

async function freeName(root: string, base: string, suffix: string): Promise<string> {
  for (let n = 0; ; n += 1) {
    const name = `${base}${n === 0 ? '' : `-${n}`}${suffix}`;
    if (!(await exists(path.join(root, name))) && !(await exists(path.join(root, `.partial-${name}`))))
      return name;
  }
}

/**
 * Copies the live database with SQLite's online backup API from a connection of its own, which holds one
 * read transaction for the whole copy: every step reads the same snapshot, so the copy is consistent even
 * while the server commits (WAL lets it write meanwhile), and the event loop gets a turn between steps.
 * (On the server's own connection a step during an open write transaction would end the backup with an
 * empty copy; hence the separate connection.)
 */
async function copyDatabase(source: string, target: string, pagesPerStep: number): Promise<void> {
  const db = new SQLite(source, { fileMustExist: true, timeout: 5000 });
  try {
    db.exec('BEGIN');
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    await db.backup(target, { progress: () => pagesPerStep });
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    // A self-contained single file (no -wal beside it), which restore and read-only checks can open as is.
    copy.pragma('journal_mode = DELETE');
    const problem = integrityProblem(copy);
    if (problem) throw new BackupError(`the copy failed PRAGMA integrity_check: ${problem}`);
    if (appliedMigrations(copy).length === 0)
      throw new BackupError('the copy holds no schema (is DATA_DIR the store’s data folder?)');
  } finally {
    copy.close();
  }
}

/** The database into the backup folder, checked; the migrations it holds (and, for PostgreSQL, its origin). */
async function copyDatabaseInto(
  partial: string,
  opts: { dataDir: string; database: BackupSource; tools: PgTools; pagesPerStep: number },
): Promise<{ migrations: string[]; postgres?: DumpInfo }> {
  if (opts.database.kind === 'postgres') {
    const { migrations, ...postgres } = await dumpDatabase(
      opts.database.url,
      path.join(partial, POSTGRES_DUMP_FILE),
      opts.tools,
    );
    if (migrations.length === 0)
      throw new BackupError('the dump holds no schema (is DATABASE_URL the store’s database?)');
    return { migrations, postgres };
  }
  await copyDatabase(databaseFile(opts.dataDir), path.join(partial, DATABASE_FILE), opts.pagesPerStep);
  const copy = new SQLite(path.join(partial, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    return { migrations: appliedMigrations(copy) };
  } finally {
    copy.close();
  }
}

/**
 * A backup of the store: the database (SQLite: a consistent snapshot, verified with integrity_check;
 * PostgreSQL: pg_dump's snapshot, read back by pg_restore) plus media/ and catalogs/, in a dated folder under
 * `backupRoot` with a manifest of the engine, sizes and sha256 sums. The folder gets its final name only when
 * all of it is written and flushed, so a crash never leaves a backup that looks complete. The session key is
 * not copied (see docs/deployment.md, "Backups").
 */
export async function createBackup(opts: {
  dataDir: string;
  backupRoot: string;
  kind: BackupKind;
  now?: Date;
  pagesPerStep?: number;
  /** SQLite in DATA_DIR unless told otherwise. */
  database?: BackupSource;
  /** Where pg_dump and pg_restore are (PostgreSQL only); PATH by default. */
  tools?: PgTools;
  /** Where media and catalogue files live when not in DATA_DIR (an S3 bucket). */
  storage?: FileStorage;
}): Promise<BackupResult> {
  const database = opts.database ?? { kind: 'sqlite' };
  const source = databaseFile(opts.dataDir);
  if (database.kind === 'sqlite' && !(await exists(source)))
    throw new BackupError(`There is no database at ${source}`);
  // Shared with servers; keeps a restore from swapping the folder while this copies it.
  const lock = await lockDataDirShared(opts.dataDir, { waitMs: 2000 });
  const now = opts.now ?? new Date();
  if (!(await exists(opts.backupRoot))) {
    makePrivateDir(opts.backupRoot);
    await matchOwner(opts.backupRoot, opts.dataDir);
  }
  const name = await freeName(
    opts.backupRoot,
    `store-${stamp(now)}`,
    opts.kind === 'scheduled' ? '-scheduled' : '',
  );
  const partial = path.join(opts.backupRoot, `.partial-${name}`);
  try {
    await mkdir(partial, { mode: 0o700 });
    const { migrations, postgres } = await copyDatabaseInto(partial, {
      dataDir: opts.dataDir,
      database,
      tools: opts.tools ?? { binDir: null },
      pagesPerStep: opts.pagesPerStep ?? 1024,
    });
    // Files after the database: a file uploaded meanwhile is an unused extra; see deployment.md for the rest.
    if (opts.storage && !keptInDataDir(opts.storage, opts.dataDir))
      await copyFilesFromStorage(opts.storage, partial);
    else await copyStoreFiles(opts.dataDir, partial);
    const { files, bytes } = await describeFiles(partial, databaseFileOf(database.kind));
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      createdAt: now.toISOString(),
      kind: opts.kind,
      engine: database.kind,
      ...(postgres ? { postgres } : {}),
      schema: { migrations, latest: migrations.at(-1) ?? null },
      files,
    };
    await writeFile(path.join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    });
    // Copies take their source's mode (and SQLite's 0644): a backup is as private as the data folder.
    makeTreePrivate(partial);
    await matchOwner(partial, opts.dataDir);
    await fsyncTree(partial);
    const dir = path.join(opts.backupRoot, name);
    await rename(partial, dir);
    await fsyncPath(opts.backupRoot);
    return { dir, manifest, bytes };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  } finally {
    lock.release();
  }
}
