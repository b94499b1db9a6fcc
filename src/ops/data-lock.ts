import { existsSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { makePrivateDir, makePrivateFile } from '../storage/private-files.js';

/**
 * DATA_DIR/store.lock: an empty SQLite file used only for its file lock, so "is a store running on this
 * folder?" has an exact answer. Servers (and backups) hold a SHARED lock for as long as they run; restore
 * needs the EXCLUSIVE lock, so it cannot start while any of them runs, and they cannot start during it.
 *
 * Why SQLite and not a pid file: the operating system drops the lock when the process dies, however it dies
 * (kill -9, power cut, OOM killer), so there is never a stale lock to judge, nor a reused pid to mistake for
 * a live server. Several servers may still share one folder (shared locks do not conflict).
 *
 * Never open this file with plain fs calls: closing any descriptor on a file drops every POSIX lock this
 * process holds on it. SQLite's own VFS knows this and keeps its descriptors open.
 */
export const LOCK_FILE = 'store.lock';

export type DataLock = { release(): void };

export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
}

const BUSY = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

function isBusy(error: unknown): boolean {
  return BUSY.has(String((error as { code?: unknown }).code ?? ''));
}

async function retry<T>(attempt: () => T, waitMs: number): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function lockPath(dataDir: string): string {
  return path.join(dataDir, LOCK_FILE);
}

/** The data folder and the lock file, made private when they are new (see private-files.ts). */
function openPrivately(dataDir: string): void {
  makePrivateDir(dataDir);
  makePrivateFile(lockPath(dataDir));
}

/**
 * Held by every server for its lifetime (and by a backup while it copies). Waits up to `waitMs` while the
 * exclusive lock is taken (a restore, or doctor's momentary probe), then refuses.
 */
export async function lockDataDirShared(dataDir: string, opts: { waitMs?: number } = {}): Promise<DataLock> {
  openPrivately(dataDir);
  const db = new SQLite(lockPath(dataDir), { timeout: 0 });
  try {
    // In EXCLUSIVE locking mode SQLite never gives back a lock it took: one read keeps SHARED until close.
    db.pragma('locking_mode = EXCLUSIVE');
    await retry(() => db.prepare('SELECT count(*) FROM sqlite_schema').get(), opts.waitMs ?? 0);
  } catch (error) {
    db.close();
    if (isBusy(error))
      throw new DataDirBusyError(
        `${dataDir} is being restored (npm run restore holds it): wait for it to finish.`,
      );
    throw error;
  }
  return { release: () => db.close() };
}

/** Restore's lock: only granted when no server, backup or other restore uses the folder. */
export function lockDataDirExclusive(dataDir: string): DataLock {
  openPrivately(dataDir);
  const db = new SQLite(lockPath(dataDir), { timeout: 0 });
  try {
    // An open EXCLUSIVE transaction holds the lock until release (rollback: the file stays empty).
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if (isBusy(error))
      throw new DataDirBusyError(
        `A store server (or a backup) is running on ${dataDir}: stop it first (e.g. systemctl stop storefront).`,
      );
    throw error;
  }
  return {
    release: () => {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    },
  };
}

/** For doctor: whether some process holds the folder now, without creating anything. */
export function dataDirInUse(dataDir: string): boolean {
  if (!existsSync(lockPath(dataDir))) return false;
  const db = new SQLite(lockPath(dataDir), { timeout: 0, fileMustExist: true });
  try {
    db.exec('BEGIN EXCLUSIVE');
    db.exec('ROLLBACK');
    return false;
  } catch (error) {
    if (isBusy(error)) return true;
    throw error;
  } finally {
    db.close();
  }
}
