import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { z } from 'zod';
import { makeTreePrivate } from '../storage/private-files.js';
import { lockDataDirExclusive } from './data-lock.js';
import {
  copyInto,
  DATABASE_FILE,
  exists,
  FILE_FOLDERS,
  fsyncPath,
  fsyncTree,
  matchOwner,
  POSTGRES_DUMP_FILE,
  stamp,
} from './files.js';
import {
  BackupInvalidError,
  type Manifest,
  type ManifestFile,
  readManifest,
  requireEngine,
  verifyFiles,
} from './manifest.js';
import { verifyDump } from './postgres/pg-dump.js';
import type { PgTools } from './postgres/pg-tools.js';
import { appliedMigrations, compareSchema, integrityProblem } from './schema.js';

/**
 * What a restore swaps, in this order. The database's -wal/-shm/-journal go out with it: an old WAL next to
 * the restored file would be replayed into it.
 */
const ENTRIES = [DATABASE_FILE, ...FILE_FOLDERS] as const;
const DATABASE_SIDE_FILES = ['-wal', '-shm', '-journal'].map((s) => `${DATABASE_FILE}${s}`);
const PLAN_FILE = 'plan.json';
const STAGING_PREFIX = '.restore-';
export const PRE_RESTORE_PREFIX = '.pre-restore-';

const planSchema = z.object({ backup: z.string(), createdAt: z.string(), id: z.string() });

/**
 * Checks a backup folder as restore does, without touching any data folder or database: the sums, then the
 * database (SQLite's integrity_check, or pg_restore reading the dump; PostgreSQL backups need `tools`).
 */
export async function verifyBackup(backupDir: string, opts: { tools?: PgTools } = {}): Promise<Manifest> {
  const manifest = await readManifest(backupDir);
  await verifyFiles(backupDir, manifest.files);
  if (manifest.engine === 'postgres') {
    await verifyDump(
      path.join(backupDir, POSTGRES_DUMP_FILE),
      { migrations: manifest.schema.migrations, dumpVersion: manifest.postgres?.dumpVersion ?? '' },
      opts.tools ?? { binDir: null },
    );
    return manifest;
  }
  const db = new SQLite(path.join(backupDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    let problem: string | null;
    try {
      problem = integrityProblem(db);
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    if (problem)
      throw new BackupInvalidError(`the backup's database fails PRAGMA integrity_check: ${problem}`);
    const applied = appliedMigrations(db);
    if (applied.length === 0) throw new BackupInvalidError("the backup's database has no schema");
    const { unknown } = compareSchema(applied);
    if (unknown.length > 0)
      throw new BackupInvalidError(
        `the backup comes from a newer version of the store (migrations this code does not know: ${unknown.join(', ')}): upgrade the store first`,
      );
  } finally {
    db.close();
  }
  return manifest;
}

async function writeFileDurably(file: string, text: string): Promise<void> {
  await writeFile(`${file}.tmp`, text, { mode: 0o600 });
  await fsyncPath(`${file}.tmp`);
  await rename(`${file}.tmp`, file);
  await fsyncPath(path.dirname(file));
}

/**
 * Moves the staged entries into DATA_DIR, the current ones into previous/. Safe to run again after a crash
 * at any point: an entry still in new/ has not been swapped yet; one that is gone from new/ has.
 */
async function applyPlan(dataDir: string, staging: string): Promise<void> {
  const incoming = path.join(staging, 'new');
  const previous = path.join(staging, 'previous');
  await mkdir(previous, { recursive: true, mode: 0o700 });
  for (const entry of ENTRIES) {
    const staged = path.join(incoming, entry);
    if (!(await exists(staged))) continue;
    const outgoing = entry === DATABASE_FILE ? [...DATABASE_SIDE_FILES, DATABASE_FILE] : [entry];
    for (const name of outgoing) {
      const live = path.join(dataDir, name);
      if (!(await exists(live))) continue;
      let target = path.join(previous, name);
      for (let n = 1; await exists(target); n += 1) target = path.join(previous, `${name}.${n}`);
      await rename(live, target);
    }
    await rename(staged, path.join(dataDir, entry));
  }
  await fsyncPath(dataDir);
}

async function pendingRestores(dataDir: string): Promise<{ staging: string; hasPlan: boolean }[]> {
  if (!(await exists(dataDir))) return [];
  const names = (await readdir(dataDir)).filter((n) => n.startsWith(STAGING_PREFIX));
  return Promise.all(
    names.map(async (n) => {
      const staging = path.join(dataDir, n);
      return { staging, hasPlan: await exists(path.join(staging, PLAN_FILE)) };
    }),
  );
}

/** After the swap: the staging folder becomes the .pre-restore copy of what was there before. */
async function finish(dataDir: string, staging: string, when: Date): Promise<string> {
  let kept = path.join(dataDir, `${PRE_RESTORE_PREFIX}${stamp(when)}`);
  for (let n = 1; await exists(kept); n += 1)
    kept = path.join(dataDir, `${PRE_RESTORE_PREFIX}${stamp(when)}-${n}`);
  // The rename is the moment the restore is over; the plan inside is only tidied away after it.
  await rename(staging, kept);
  await fsyncPath(dataDir);
  await rm(path.join(kept, PLAN_FILE), { force: true });
  await rm(path.join(kept, 'new'), { recursive: true, force: true });
  return kept;
}

/**
 * Finishes a restore that was interrupted after it committed to its plan (rolls it forward), and removes
 * staging left by one interrupted before that (nothing had changed yet). Call with the data folder locked:
 * the server does at start, before it opens the database. Returns what it did, for the log.
 */
export async function finishInterruptedRestore(dataDir: string): Promise<string[]> {
  const done: string[] = [];
  for (const { staging, hasPlan } of await pendingRestores(dataDir)) {
    if (!hasPlan) {
      await rm(staging, { recursive: true, force: true });
      done.push(
        `removed the staging of an unfinished restore (${path.basename(staging)}); nothing had changed`,
      );
      continue;
    }
    const plan = planSchema.parse(JSON.parse(await readFile(path.join(staging, PLAN_FILE), 'utf8')));
    const kept = await completeRestore(dataDir, staging, new Date(plan.createdAt));
    done.push(`completed an interrupted restore of ${plan.backup}; the data before it is in ${kept}`);
  }
  return done;
}

export type RestoreResult = { manifest: Manifest; previous: string; notes: string[] };

/**
 * Copies `files` of a backup into a new staging folder inside DATA_DIR (same file system, so the later
 * renames are atomic), checks the copies again and flushes them. Nothing in DATA_DIR changes yet: a staging
 * folder without a plan is removed by the next start. Returns the staging folder.
 */
export async function stageFiles(
  backupDir: string,
  dataDir: string,
  files: readonly ManifestFile[],
  now: Date,
): Promise<string> {
  const staging = path.join(dataDir, `${STAGING_PREFIX}${stamp(now)}-${randomBytes(4).toString('hex')}`);
  const incoming = path.join(staging, 'new');
  try {
    await mkdir(incoming, { recursive: true, mode: 0o700 });
    for (const folder of FILE_FOLDERS)
      await mkdir(path.join(incoming, folder), { recursive: true, mode: 0o700 });
    for (const file of files) {
      await copyInto(
        path.join(backupDir, ...file.path.split('/')),
        path.join(incoming, ...file.path.split('/')),
      );
    }
    // The copies are checked again: a disk that garbles writes must not get the last word.
    await verifyFiles(incoming, files);
    // A backup made before backups were private holds 0644 copies: what goes live is 0600 like the rest.
    makeTreePrivate(incoming);
    await matchOwner(incoming, dataDir);
    await fsyncTree(incoming);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return staging;
}

/** The commit point of a restore: once the plan is written, the swap is completed even after a crash. */
export async function commitPlan(staging: string, backupDir: string, now: Date): Promise<void> {
  try {
    await writeFileDurably(
      path.join(staging, PLAN_FILE),
      JSON.stringify({ backup: backupDir, createdAt: now.toISOString(), id: path.basename(staging) }),
    );
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Restore's first half, with the folder locked: verify the backup, stage its files, then write the plan:
 * the commit point. Until the plan exists nothing in DATA_DIR has changed.
 */
export async function stageRestore(
  backupDir: string,
  dataDir: string,
  now: Date,
): Promise<{ manifest: Manifest; staging: string }> {
  const manifest = await verifyBackup(backupDir);
  const staging = await stageFiles(backupDir, dataDir, manifest.files, now);
  await commitPlan(staging, backupDir, now);
  return { manifest, staging };
}

/** Restore's second half: the swap, then the staging folder becomes the .pre-restore copy. */
export async function completeRestore(dataDir: string, staging: string, now: Date): Promise<string> {
  await applyPlan(dataDir, staging);
  return finish(dataDir, staging, now);
}

/**
 * Puts a backup of a SQLite store back into DATA_DIR (restore-postgres.ts does PostgreSQL's). Refuses while any server or backup uses the folder (exclusive lock),
 * and when the backup fails its checks (manifest sums, integrity_check, schema newer than this code).
 * The data it replaces is kept as DATA_DIR/.pre-restore-<stamp>/. A crash before the plan is written
 * changes nothing; after it, the next server start (or restore) completes the swap.
 *
 * `confirm` is asked only once the folder is locked and the backup has passed its checks, so a "yes" is
 * never followed by "a store is running" (and no store can start while the question waits). Answering no
 * resolves to null with nothing changed.
 */
export async function restoreBackup(opts: {
  backupDir: string;
  dataDir: string;
  now?: Date;
  confirm?: (manifest: Manifest) => Promise<boolean>;
}): Promise<RestoreResult | null> {
  const backupDir = path.resolve(opts.backupDir);
  requireEngine(await readManifest(backupDir), 'sqlite');
  const lock = lockDataDirExclusive(opts.dataDir);
  try {
    if (opts.confirm && !(await opts.confirm(await verifyBackup(backupDir)))) return null;
    const now = opts.now ?? new Date();
    const notes = await finishInterruptedRestore(opts.dataDir);
    const { manifest, staging } = await stageRestore(backupDir, opts.dataDir, now);
    const previous = await completeRestore(opts.dataDir, staging, now);
    return { manifest, previous, notes };
  } finally {
    lock.release();
  }
}

/** Pre-restore copies kept in DATA_DIR (doctor mentions them; deleting them is the operator's call). */
export async function preRestoreCopies(dataDir: string): Promise<string[]> {
  if (!(await exists(dataDir))) return [];
  return (await readdir(dataDir)).filter((n) => n.startsWith(PRE_RESTORE_PREFIX));
}

/** Whether a restore was interrupted (the next server start completes or cleans it). */
export async function interruptedRestore(dataDir: string): Promise<boolean> {
  return (await pendingRestores(dataDir)).length > 0;
}
